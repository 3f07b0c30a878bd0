//! Administrator basics (B §2.15, §5): look a user up, set a free trial or a 30-day premium grant, and create
//! invite codes. The role is checked on the server by the `Admin` extractor.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::{
    Grant, PREMIUM_DAYS, is_valid_email, normalize_email, quota_window_start,
};
use outreach_core::platform::security::invite_code;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::Admin;

use axum::Router;
use axum::routing::{get, post};

/// The endpoints of this module, outside the account gate (each checks what it needs itself).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/user-status", get(user_status))
        .route("/api/admin/set-user-status", post(set_user_status))
        .route("/api/admin/invites", get(list_invites).post(create_invite))
        .route("/api/admin/unsubscribes", get(list_unsubscribes))
}

const EMAIL_REQUIRED: &str = "Please enter a user email address";

#[derive(Debug, Deserialize)]
pub struct LookupParams {
    email: Option<String>,
}

/// `GET /api/admin/user-status?email=`: the user and the emails they used in the quota window.
pub async fn user_status(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<LookupParams>,
) -> ApiResult<Json<Value>> {
    let email = params
        .email
        .as_deref()
        .map(normalize_email)
        .filter(|email| !email.is_empty());
    let email = email.ok_or_else(|| ApiError::validation(EMAIL_REQUIRED))?;
    let user = state.ctx.db.find_user_by_email(&email).await?;
    let user =
        user.ok_or_else(|| ApiError::not_found(format!("No user found with email {email}")))?;
    let used = state
        .ctx
        .db
        .count_sent_emails_since(user.id, quota_window_start(state.ctx.now_ms()))
        .await?;
    Ok(Json(
        json!({ "user": user.view(&state.ctx.settings.auth), "emailsUsed": used }),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusForm {
    email: Option<String>,
    status: Option<String>,
    /// A number, or the text of the form's number field.
    email_limit: Option<Value>,
}

/// `POST /api/admin/set-user-status`: `free_trial`, or `premium` with a whole-number `emailLimit` ≥ 1 for 30 days.
/// An account that does not exist yet is created, so it is active at its first sign-in.
pub async fn set_user_status(
    State(state): State<AppState>,
    Admin(_): Admin,
    JsonBody(form): JsonBody<StatusForm>,
) -> ApiResult<Json<Value>> {
    let email = form
        .email
        .as_deref()
        .map(normalize_email)
        .unwrap_or_default();
    let (grant, message) = match form.status.as_deref() {
        Some("free_trial") => {
            if email.is_empty() {
                return Err(ApiError::validation(EMAIL_REQUIRED));
            }
            (
                Grant::FreeTrial,
                format!("User {email} has been set to free trial status"),
            )
        }
        Some("premium") => {
            let limit = form
                .email_limit
                .filter(|value| !value.is_null() && value.as_str() != Some(""));
            let Some(limit) = limit.filter(|_| !email.is_empty()) else {
                return Err(ApiError::validation(
                    "Please enter both email address and email limit",
                ));
            };
            let email_limit = parse_limit(&limit)
                .ok_or_else(|| ApiError::validation("Email limit must be a positive number"))?;
            let message = format!(
                "User {email} has been granted premium access with {email_limit} emails for {PREMIUM_DAYS} days"
            );
            (Grant::Premium { email_limit }, message)
        }
        _ => return Err(ApiError::validation("Status must be free_trial or premium")),
    };
    if !is_valid_email(&email) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let now = state.ctx.now_ms();
    let user = state
        .ctx
        .db
        .set_subscription(
            &email,
            &grant.subscription(now, &state.ctx.settings.accounts),
            now,
        )
        .await?;
    tracing::info!(user_id = user.id, plan = ?user.subscription_plan, "administrator changed a subscription");
    Ok(Json(
        json!({ "success": true, "message": message, "user": user.view(&state.ctx.settings.auth) }),
    ))
}

/// A whole number of at least 1, given as a JSON number or as text.
fn parse_limit(value: &Value) -> Option<i64> {
    let number = match value {
        Value::Number(number) => number.as_i64()?,
        Value::String(text) => text.trim().parse::<i64>().ok()?,
        _ => return None,
    };
    (number >= 1).then_some(number)
}

#[derive(Debug, Default, Deserialize)]
pub struct InviteForm {
    note: Option<String>,
}

/// `POST /api/admin/invites`: a new single-use invite code.
pub async fn create_invite(
    State(state): State<AppState>,
    Admin(admin): Admin,
    JsonBody(form): JsonBody<InviteForm>,
) -> ApiResult<Response> {
    let note = form
        .note
        .map(|note| note.trim().to_string())
        .filter(|note| !note.is_empty());
    if note.as_ref().is_some_and(|note| note.chars().count() > 200) {
        return Err(ApiError::validation(
            "The note must be at most 200 characters",
        ));
    }
    let invite = state
        .ctx
        .db
        .insert_invite(
            &invite_code(),
            note.as_deref(),
            admin.id,
            state.ctx.now_ms(),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(invite)).into_response())
}

/// `GET /api/admin/invites`: every invite code, newest first, with `Content-Range` as ra-data-simple-rest expects.
pub async fn list_invites(State(state): State<AppState>, Admin(_): Admin) -> ApiResult<Response> {
    let invites = state.ctx.db.list_invites().await?;
    let range = format!(
        "invites 0-{}/{}",
        invites.len().saturating_sub(1),
        invites.len()
    );
    let mut response = Json(invites).into_response();
    response.headers_mut().insert(
        "content-range",
        HeaderValue::from_str(&range).expect("ASCII"),
    );
    Ok(response)
}

#[derive(Debug, Deserialize)]
pub struct ListParams {
    /// ra-data-simple-rest: `[first, last]`, inclusive.
    range: Option<String>,
    /// ra-data-simple-rest: `{"q": "text"}`.
    filter: Option<String>,
}

/// `GET /api/admin/unsubscribes`: the suppression list, newest first, in the ra-data-simple-rest dialect.
pub async fn list_unsubscribes(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let (first, last) = parse_range(params.range.as_deref())?;
    let filter: Value = params
        .filter
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_filter",
                "filter must be a JSON object",
            )
        })?
        .unwrap_or(Value::Null);
    let query = filter["q"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_lowercase();
    let (rows, total) = state
        .ctx
        .db
        .list_unsubscribes(&query, last - first + 1, first)
        .await?;
    let records: Vec<Value> = rows
        .iter()
        .map(|row| {
            let mut record = serde_json::to_value(row).unwrap_or_default();
            record["id"] = json!(row.email);
            record
        })
        .collect();
    let end = first + records.len().max(1) as i64 - 1;
    let range = format!("unsubscribes {first}-{end}/{total}");
    let mut response = Json(records).into_response();
    response.headers_mut().insert(
        "content-range",
        HeaderValue::from_str(&range).expect("ASCII"),
    );
    Ok(response)
}

/// `[0, 24]` → (0, 24); absent → the first 25. At most 1,000 rows a page.
fn parse_range(range: Option<&str>) -> ApiResult<(i64, i64)> {
    let Some(range) = range else {
        return Ok((0, 24));
    };
    let bad = || {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_range",
            "range must be [first, last]",
        )
    };
    let [first, last]: [i64; 2] = serde_json::from_str(range).map_err(|_| bad())?;
    if first < 0 || last < first || last - first >= 1000 {
        return Err(bad());
    }
    Ok((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_ra_data_simple_rest() {
        assert_eq!(parse_range(None).unwrap(), (0, 24));
        assert_eq!(parse_range(Some("[10,19]")).unwrap(), (10, 19));
        for bad in ["[5,1]", "[-1,3]", "[0,5000]", "nope", "[1]"] {
            assert!(parse_range(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits_are_whole_numbers_of_at_least_one() {
        assert_eq!(parse_limit(&json!(1000)), Some(1000));
        assert_eq!(parse_limit(&json!(" 25 ")), Some(25));
        for bad in [
            json!(0),
            json!(-3),
            json!(2.5),
            json!("2.5"),
            json!("many"),
            json!(true),
        ] {
            assert_eq!(parse_limit(&bad), None, "{bad}");
        }
    }
}
