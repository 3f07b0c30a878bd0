//! What the sender forms share: optional text fields, the reply-to address and the default daily cap.

use outreach_core::accounts::{is_valid_email, normalize_email};

use crate::AppState;
use crate::error::{ApiError, ApiResult};

/// A sender's daily cap unless the user sets one.
pub(crate) const DEFAULT_DAILY_CAP: i32 = 500;

pub(crate) fn text(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .map(str::to_string)
}

/// An optional reply-to address, normalised; a present but malformed one is refused.
pub fn reply_to_address(value: &Option<String>) -> ApiResult<Option<String>> {
    let reply_to = text(value).map(|reply| normalize_email(&reply));
    if reply_to
        .as_deref()
        .is_some_and(|reply| !is_valid_email(reply))
    {
        return Err(ApiError::validation(
            "Please enter a valid reply-to address",
        ));
    }
    Ok(reply_to)
}

/// The address a username gets on the instance's sending domain.
pub(crate) fn basic_address(state: &AppState, username: &str) -> String {
    format!(
        "{}@{}",
        username.to_lowercase(),
        state.ctx.settings.sending_domain()
    )
}
