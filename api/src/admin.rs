//! Administrator basics (B §2.15, §5): look a user up, set a free trial or a 30-day premium grant, and create
//! invite codes. The role is checked on the server by the `Admin` extractor.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::UserView;
use outreach_core::accounts::store::InviteRow;
use outreach_core::accounts::{
    Grant, PREMIUM_DAYS, is_valid_email, normalize_email, quota_window_start,
};
use outreach_core::platform::security::invite_code;
use outreach_core::tracking::suppression::Unsubscribe;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Access, ErrorBody, with_access};
use crate::session::Admin;

/// The endpoints of this module, for administrators (outside the account gate).
pub fn routes() -> OpenApiRouter<AppState> {
    let router = OpenApiRouter::new()
        .routes(routes!(user_status))
        .routes(routes!(set_user_status))
        .routes(routes!(list_invites, create_invite))
        .routes(routes!(list_unsubscribes));
    with_access(router, Access::Admin)
}

const EMAIL_REQUIRED: &str = "Please enter a user email address";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LookupParams {
    email: Option<String>,
}

/// A user as the administrator looks them up.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserStatus {
    pub user: UserView,
    /// Emails sent in the last 30 days.
    pub emails_used: i64,
}

/// A user and the emails they used in the quota window.
#[utoipa::path(get, path = "/api/admin/user-status", tag = "admin", params(LookupParams), responses(
    (status = 200, body = UserStatus),
    (status = 404, description = "No user found with email {email}", body = ErrorBody),
    (status = 422, description = "Please enter a user email address", body = ErrorBody)))]
pub async fn user_status(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<LookupParams>,
) -> ApiResult<Json<UserStatus>> {
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
    Ok(Json(UserStatus {
        user: user.view(&state.ctx.settings.auth),
        emails_used: used,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusForm {
    email: Option<String>,
    /// `free_trial` or `premium`.
    status: Option<String>,
    /// A number, or the text of the form's number field.
    #[schema(value_type = Option<Object>)]
    email_limit: Option<Value>,
}

/// What a grant did: the toast's message and the user as they now are.
#[derive(Debug, Serialize, ToSchema)]
pub struct Granted {
    pub success: bool,
    /// 'User {email} has been set to free trial status', or '... granted premium access with {n} emails for 30 days'.
    pub message: String,
    pub user: UserView,
}

/// Sets `free_trial`, or `premium` with a whole-number `emailLimit` of at least 1 for 30 days. An account that does
/// not exist yet is created, so it is active at its first sign-in.
#[utoipa::path(post, path = "/api/admin/set-user-status", tag = "admin", request_body = StatusForm, responses(
    (status = 200, body = Granted),
    (status = 422, description = "The spec's admin validation messages (B §5)", body = ErrorBody)))]
pub async fn set_user_status(
    State(state): State<AppState>,
    Admin(_): Admin,
    JsonBody(form): JsonBody<StatusForm>,
) -> ApiResult<Json<Granted>> {
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
    Ok(Json(Granted {
        success: true,
        message,
        user: user.view(&state.ctx.settings.auth),
    }))
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

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NewInvite {
    note: Option<String>,
}

/// A new single-use invite code, with an optional note (at most 200 characters).
#[utoipa::path(post, path = "/api/admin/invites", tag = "admin", request_body = NewInvite, responses(
    (status = 201, body = InviteRow),
    (status = 422, description = "The note must be at most 200 characters", body = ErrorBody)))]
pub async fn create_invite(
    State(state): State<AppState>,
    Admin(admin): Admin,
    JsonBody(form): JsonBody<NewInvite>,
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

/// Every invite code, newest first, with `Content-Range` as ra-data-simple-rest expects.
#[utoipa::path(get, path = "/api/admin/invites", tag = "admin",
    responses((status = 200, body = Vec<InviteRow>, headers(("content-range" = String)))))]
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

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// ra-data-simple-rest: `[first, last]`, inclusive.
    range: Option<String>,
    /// ra-data-simple-rest: `{"q": "text"}`.
    filter: Option<String>,
}

/// A suppressed address as a react-admin record (its `id` is the address).
#[derive(Debug, Serialize, ToSchema)]
pub struct SuppressedAddress {
    pub id: String,
    #[serde(flatten)]
    pub unsubscribe: Unsubscribe,
}

/// The suppression list, newest first, in the ra-data-simple-rest dialect (`range`, `filter`, `Content-Range`).
#[utoipa::path(get, path = "/api/admin/unsubscribes", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<SuppressedAddress>, headers(("content-range" = String))),
    (status = 400, description = "range must be [first, last], or filter must be a JSON object", body = ErrorBody)))]
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
    let records: Vec<SuppressedAddress> = rows
        .into_iter()
        .map(|unsubscribe| SuppressedAddress {
            id: unsubscribe.email.clone(),
            unsubscribe,
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
    use serde_json::json;

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
