//! The local outbox: what was "sent" without leaving the machine, and replies typed for it to try reply handling.

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::SignedIn;

/// `GET /api/outbox`: what the local outbox kept (nothing left the machine).
pub async fn outbox(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let messages = state.ctx.db.outbox(user.id, 200).await?;
    Ok(Json(json!(messages)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OutboxReplyRequest {
    body: String,
}

/// `POST /api/outbox/{id}/reply {body}`: a reply typed in the app for a message the local outbox kept, as if its
/// recipient had answered, so the reply handling can be tried without a mailbox.
pub async fn outbox_reply(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<OutboxReplyRequest>,
) -> ApiResult<Json<Value>> {
    let body = request.body.trim();
    if body.is_empty() {
        return Err(ApiError::validation("Please type the reply"));
    }
    let message = state
        .ctx
        .db
        .find_outbox_sent(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Outbox message not found"))?;
    let subject = state
        .ctx
        .db
        .load_message(id)
        .await?
        .map(|row| format!("Re: {}", row.subject))
        .unwrap_or_default();
    let reply = outreach_core::inbound::mail::Inbound {
        kind: outreach_core::inbound::mail::Kind::Reply,
        from: Some(message.to_email.clone()),
        refers_to: Vec::new(),
        subject,
        text: body.to_string(),
    };
    state
        .ctx
        .db
        .record_inbound(
            user.id,
            Some(&message),
            &reply,
            "outbox",
            state.ctx.now_ms(),
        )
        .await?;
    Ok(Json(json!({ "success": true, "status": "replied" })))
}
