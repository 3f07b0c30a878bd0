//! The user's sent emails (B §3 Sent email, §7): `GET /api/emails/sent` (newest first, `limit` up to 500 and
//! `offset`, each with its events), `GET /api/emails/{id}` (one with its body and events, for the email dialog of
//! B §2.10) and `POST /api/emails/{id}/mark-opened`, a manual open recorded as such.

use axum::Json;
use axum::extract::{Path, Query, State};
use outreach_core::tracking::sent::{ManualOpen, SentEmail};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sent))
        .routes(routes!(email))
        .routes(routes!(mark_opened))
}

const PAGE_MAX: i64 = 500;

/// A page of a list: `limit` (default 100, at most 500) rows from `offset`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct Page {
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

/// The user's sent emails, newest first, each with its events.
#[utoipa::path(get, path = "/api/emails/sent", tag = "emails", params(Page),
    responses((status = 200, body = Vec<SentEmail>)))]
pub async fn sent(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(page): Query<Page>,
) -> ApiResult<Json<Vec<SentEmail>>> {
    let limit = page.limit.unwrap_or(100).clamp(1, PAGE_MAX);
    let offset = page.offset.unwrap_or(0).max(0);
    let emails = state
        .ctx
        .db
        .tracking()
        .sent_emails(user.id, limit, offset)
        .await?;
    Ok(Json(emails))
}

/// One sent email with its body and events.
#[utoipa::path(get, path = "/api/emails/{id}", tag = "emails", params(("id" = i64, Path)), responses(
    (status = 200, body = SentEmail),
    (status = 404, description = "Email not found", body = ErrorBody)))]
pub async fn email(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<SentEmail>> {
    let email = state
        .ctx
        .db
        .tracking()
        .sent_email(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email not found"))?;
    Ok(Json(email))
}

/// The answer to a manual open.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkedOpened {
    pub success: bool,
    /// The message was opened before; nothing changed.
    pub already_opened: bool,
}

/// Records that the recipient opened the email (the user knows it; B §2.10 Mark Opened), flagged as manual.
#[utoipa::path(post, path = "/api/emails/{id}/mark-opened", tag = "emails", params(("id" = i64, Path)), responses(
    (status = 200, body = MarkedOpened),
    (status = 404, description = "Email not found", body = ErrorBody)))]
pub async fn mark_opened(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<MarkedOpened>> {
    let already_opened = match state
        .ctx
        .db
        .tracking()
        .mark_opened_manually(id, user.id, state.ctx.now_ms())
        .await?
    {
        ManualOpen::NotFound => return Err(ApiError::not_found("Email not found")),
        ManualOpen::AlreadyOpened => true,
        ManualOpen::Marked => false,
    };
    Ok(Json(MarkedOpened {
        success: true,
        already_opened,
    }))
}
