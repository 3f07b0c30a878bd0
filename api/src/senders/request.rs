//! What the sender forms share: optional text fields, the reply-to address, the daily cap and the ramp-up.

use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::sending::senders::Ramp;
use serde::Deserialize;
use utoipa::ToSchema;

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

/// A sender's daily cap and ramp-up, as a form sends them (absent fields keep what the sender has).
#[derive(Debug, Default, Deserialize, serde::Serialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LimitsRequest {
    /// The most it sends a day once warmed up (1 to 100,000).
    daily_cap: Option<i32>,
    /// Whether it warms up: it starts at `rampStart` a day and adds `rampStep` each day it has sent.
    ramp_up: Option<bool>,
    ramp_start: Option<i32>,
    ramp_step: Option<i32>,
}

impl LimitsRequest {
    pub(crate) fn is_empty(&self) -> bool {
        self.daily_cap.is_none()
            && self.ramp_up.is_none()
            && self.ramp_start.is_none()
            && self.ramp_step.is_none()
    }

    /// The cap and ramp-up these fields make of `daily_cap` and `ramp`, each checked.
    pub(crate) fn apply(&self, daily_cap: i32, ramp: Ramp) -> ApiResult<(i32, Ramp)> {
        let daily_cap = self.daily_cap.unwrap_or(daily_cap);
        if !(1..=100_000).contains(&daily_cap) {
            return Err(ApiError::validation(
                "Daily cap must be between 1 and 100000",
            ));
        }
        let ramp = Ramp {
            enabled: self.ramp_up.unwrap_or(ramp.enabled),
            start: self.ramp_start.unwrap_or(ramp.start),
            step: self.ramp_step.unwrap_or(ramp.step),
        };
        if !(1..=10_000).contains(&ramp.start) {
            return Err(ApiError::validation(
                "Ramp-up start must be between 1 and 10000 emails a day",
            ));
        }
        if !(1..=10_000).contains(&ramp.step) {
            return Err(ApiError::validation(
                "Ramp-up step must be between 1 and 10000 emails a day",
            ));
        }
        Ok((daily_cap, ramp))
    }
}

/// A pool of senders a request names, each checked to be the user's (another user's, or a removed one, is 404), in
/// order and without repeats; an empty pool is refused (400).
pub(crate) async fn owned_pool(state: &AppState, user_id: i64, ids: &[i64]) -> ApiResult<Vec<i64>> {
    if ids.is_empty() {
        return Err(ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "empty_pool",
            "Choose at least one sender to send this campaign from",
        ));
    }
    let ids = outreach_core::platform::limits::distinct(ids);
    for id in &ids {
        state
            .ctx
            .db
            .sending()
            .find_email_config(*id, user_id)
            .await?
            .filter(|config| config.removed_at.is_none())
            .ok_or_else(|| ApiError::not_found("Email configuration not found"))?;
    }
    Ok(ids)
}
