//! The user's sent emails (B §3 Sent email, §7): `GET /api/emails/sent` (newest first, `limit` up to 500 and
//! `offset`, each with its events), `GET /api/emails/{id}` (one with its body and events, for the email dialog of
//! B §2.10) and `POST /api/emails/{id}/mark-opened`, a manual open recorded as such.

use axum::Json;
use axum::extract::{Path, Query, State};
use outreach_core::inbound::feedback::ManualOpen;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::session::SignedIn;

use axum::Router;
use axum::routing::{get, post};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/emails/sent", get(sent))
        .route("/api/emails/{id}", get(email))
        .route("/api/emails/{id}/mark-opened", post(mark_opened))
}

const PAGE_MAX: i64 = 500;

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Page {
    limit: Option<i64>,
    offset: Option<i64>,
}

/// `GET /api/emails/sent?limit=&offset=`.
pub async fn sent(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(page): Query<Page>,
) -> ApiResult<Json<Value>> {
    let limit = page.limit.unwrap_or(100).clamp(1, PAGE_MAX);
    let offset = page.offset.unwrap_or(0).max(0);
    let emails = state.ctx.db.sent_emails(user.id, limit, offset).await?;
    Ok(Json(json!(emails)))
}

/// `GET /api/emails/{id}`.
pub async fn email(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    let email = state
        .ctx
        .db
        .sent_email(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email not found"))?;
    Ok(Json(json!(email)))
}

/// `POST /api/emails/{id}/mark-opened`.
pub async fn mark_opened(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    match state
        .ctx
        .db
        .mark_opened_manually(id, user.id, state.ctx.now_ms())
        .await?
    {
        ManualOpen::NotFound => Err(ApiError::not_found("Email not found")),
        ManualOpen::AlreadyOpened => Ok(Json(json!({ "success": true, "alreadyOpened": true }))),
        ManualOpen::Marked => Ok(Json(json!({ "success": true, "alreadyOpened": false }))),
    }
}
