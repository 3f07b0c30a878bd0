//! Accounts in the console (B §2.15, §5): the lookup by email, Set Free Trial and Grant Premium of the home page,
//! the list of users with their filters, a user's usage, campaigns and senders, the account actions, and invite codes.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::UserView;
use outreach_core::accounts::store::InviteRow;
use outreach_core::accounts::{
    Grant, PREMIUM_DAYS, is_valid_email, normalize_email, quota_window_start,
};
use outreach_core::admin::listing::{
    self, AdminCampaign, AdminSender, AdminUser, Filter, USER_GROUPS,
};
use outreach_core::admin::{self, UserAction};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::listing::{ListParams, listed};
use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::Admin;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(user_status))
        .routes(routes!(set_user_status))
        .routes(routes!(list_users))
        .routes(routes!(show_user))
        .routes(routes!(user_action))
        .routes(routes!(list_invites, create_invite))
        .routes(routes!(revoke_invite))
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
    let user = state.ctx.db.accounts().find_user_by_email(&email).await?;
    let user =
        user.ok_or_else(|| ApiError::not_found(format!("No user found with email {email}")))?;
    let used = state
        .ctx
        .db
        .accounts()
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
    Admin(admin): Admin,
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
    admin::change_user(&state.ctx, &admin.email, &email, UserAction::Grant(grant)).await?;
    let user = state.ctx.db.accounts().find_user_by_email(&email).await?;
    let user = user.ok_or_else(|| ApiError::internal("the granted user is missing"))?;
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
    let invite = admin::create_invite(
        &state.ctx,
        &admin.email,
        form.note.as_deref(),
        Some(admin.id),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(invite)).into_response())
}

/// Invite codes, newest first; `filter.q` looks in the code and the note.
#[utoipa::path(get, path = "/api/admin/invites", tag = "admin", params(ListParams),
    responses((status = 200, body = Vec<InviteRow>, headers(("content-range" = String)))))]
pub async fn list_invites(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::INVITES)?;
    let filter = Filter {
        text: listing.text("q"),
        ..Filter::default()
    };
    let (invites, total) = state
        .ctx
        .db
        .admin()
        .admin_invites(&filter, None, &listing.page)
        .await?;
    Ok(listed("invites", listing.first, invites, total))
}

/// Revokes an invite code that was neither redeemed nor revoked: it can no longer be redeemed.
#[utoipa::path(post, path = "/api/admin/invites/{id}/revoke", tag = "admin", params(("id" = i64, Path)), responses(
    (status = 200, body = InviteRow),
    (status = 404, description = "No such invite", body = ErrorBody),
    (status = 422, description = "Only an invite that was neither redeemed nor revoked can be revoked", body = ErrorBody)))]
pub async fn revoke_invite(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<i64>,
) -> ApiResult<Json<InviteRow>> {
    let invite = admin::find_invite(&state.ctx, id).await?;
    admin::revoke_invite(&state.ctx, &admin.email, &invite.code).await?;
    Ok(Json(admin::find_invite(&state.ctx, id).await?))
}

/// Users, newest first: `filter.q` looks in the email and the name, `filter.group` is one of waiting (for access),
/// trial, premium, expired, administrators.
#[utoipa::path(get, path = "/api/admin/users", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<AdminUser>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_users(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::USERS)?;
    let group = listing.text("group");
    if !group.is_empty() && !USER_GROUPS.contains(&group.as_str()) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_filter",
            format!("group must be one of {}", USER_GROUPS.join(", ")),
        ));
    }
    let filter = Filter {
        text: listing.text("q"),
        status: group,
    };
    let administrators = &state.ctx.settings.auth.admin_emails;
    let (users, total) = state
        .ctx
        .db
        .admin()
        .admin_users(&filter, administrators, &listing.page, state.ctx.now_ms())
        .await?;
    Ok(listed("users", listing.first, users, total))
}

/// A user with their usage, campaigns and senders.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminUserDetail {
    #[serde(flatten)]
    pub user: AdminUser,
    pub is_administrator: bool,
    /// Their 50 newest campaigns.
    pub campaigns: Vec<AdminCampaign>,
    pub senders: Vec<AdminSender>,
}

/// One user, with usage, campaigns and senders.
#[utoipa::path(get, path = "/api/admin/users/{id}", tag = "admin", params(("id" = i64, Path)), responses(
    (status = 200, body = AdminUserDetail),
    (status = 404, description = "No such user", body = ErrorBody)))]
pub async fn show_user(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminUserDetail>> {
    Ok(Json(user_detail(&state, id).await?))
}

async fn user_detail(state: &AppState, id: i64) -> ApiResult<AdminUserDetail> {
    let ctx = &state.ctx;
    let user = ctx.db.admin().admin_user(id, ctx.now_ms()).await?;
    let user = user.ok_or_else(|| ApiError::not_found("No such user"))?;
    let filter = Filter {
        text: user.email.clone(),
        status: String::new(),
    };
    let newest =
        |sortable: &listing::Sortable| sortable.page(None, true, 50, 0).expect("default order");
    let (campaigns, _) = ctx
        .db
        .admin()
        .admin_campaigns(&filter, None, &newest(&listing::CAMPAIGNS))
        .await?;
    let (senders, _) = ctx
        .db
        .admin()
        .admin_senders(&filter, &newest(&listing::SENDERS), ctx.now_ms())
        .await?;
    Ok(AdminUserDetail {
        is_administrator: ctx.settings.auth.is_admin(&user.email),
        campaigns: campaigns
            .into_iter()
            .filter(|c| c.user_email == user.email)
            .collect(),
        senders: senders
            .into_iter()
            .filter(|s| s.user_email == user.email)
            .collect(),
        user,
    })
}

/// An action on an account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserActionForm {
    /// activate, deactivate, free_trial, premium (with `emailLimit`), limit (with `emailLimit`), extend (with `days`).
    action: String,
    #[schema(value_type = Option<Object>)]
    email_limit: Option<Value>,
    days: Option<i64>,
}

/// What an account action did: the message to show and the user as they now are.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserChanged {
    pub message: String,
    pub user: AdminUserDetail,
}

/// Activates, deactivates, sets a free trial, grants premium with a limit for 30 days, changes the limit or extends
/// the subscription; written to the audit log with the account before and after.
#[utoipa::path(post, path = "/api/admin/users/{id}/actions", tag = "admin", params(("id" = i64, Path)),
    request_body = UserActionForm, responses(
    (status = 200, body = UserChanged),
    (status = 404, description = "No such user", body = ErrorBody),
    (status = 422, description = "An action the account does not take, or a limit or days out of range", body = ErrorBody)))]
pub async fn user_action(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<i64>,
    JsonBody(form): JsonBody<UserActionForm>,
) -> ApiResult<Json<UserChanged>> {
    let user = user_detail(&state, id).await?.user;
    let email = user.email.clone();
    let limit = || {
        form.email_limit
            .as_ref()
            .and_then(parse_limit)
            .ok_or_else(|| ApiError::validation("Email limit must be a positive number"))
    };
    let (action, message) = match form.action.as_str() {
        "activate" => (
            UserAction::Activate,
            format!("User {email} has been activated"),
        ),
        "deactivate" => (
            UserAction::Deactivate,
            format!("User {email} has been deactivated"),
        ),
        "free_trial" => (
            UserAction::Grant(Grant::FreeTrial),
            format!("User {email} has been set to free trial status"),
        ),
        "premium" => {
            let email_limit = limit()?;
            (
                UserAction::Grant(Grant::Premium { email_limit }),
                format!(
                    "User {email} has been granted premium access with {email_limit} emails for {PREMIUM_DAYS} days"
                ),
            )
        }
        "limit" => {
            let email_limit = limit()?;
            (
                UserAction::SetLimit(email_limit),
                format!("User {email} can now send {email_limit} emails a month"),
            )
        }
        "extend" => {
            let days = form.days.unwrap_or(0);
            (
                UserAction::Extend { days },
                format!("User {email}'s access has been extended by {days} days"),
            )
        }
        _ => {
            return Err(ApiError::validation(
                "Action must be activate, deactivate, free_trial, premium, limit or extend",
            ));
        }
    };
    admin::change_user(&state.ctx, &admin.email, &email, action).await?;
    Ok(Json(UserChanged {
        message,
        user: user_detail(&state, id).await?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
