//! The local outbox: what was "sent" without leaving the machine, and replies typed for it to try reply handling.

use axum::Json;
use axum::extract::{Path, State};
use outreach_core::sending::progress::OutboxMessage;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;

/// What the local outbox kept (nothing left the machine), newest first.
#[utoipa::path(get, path = "/api/outbox", tag = "senders", responses((status = 200, body = Vec<OutboxMessage>)))]
pub async fn outbox(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<OutboxMessage>>> {
    let messages = state.ctx.db.sending().outbox(user.id, 200).await?;
    Ok(Json(messages))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct OutboxReplyRequest {
    body: String,
}

/// A recorded outbox reply.
#[derive(Debug, Serialize, ToSchema)]
pub struct OutboxReplied {
    pub success: bool,
    /// Always `replied`.
    pub status: String,
}

/// A reply typed in the app for a message the local outbox kept, as if its recipient had answered, so the reply
/// handling can be tried without a mailbox.
#[utoipa::path(post, path = "/api/outbox/{id}/reply", tag = "senders", params(("id" = i64, Path)),
    request_body = OutboxReplyRequest, responses((status = 200, body = OutboxReplied),
        (status = 404, description = "Outbox message not found", body = ErrorBody),
        (status = 422, description = "Please type the reply", body = ErrorBody)))]
pub async fn outbox_reply(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<OutboxReplyRequest>,
) -> ApiResult<Json<OutboxReplied>> {
    let body = request.body.trim();
    if body.is_empty() {
        return Err(ApiError::validation("Please type the reply"));
    }
    let message = state
        .ctx
        .db
        .inbound()
        .find_outbox_sent(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Outbox message not found"))?;
    let subject = state
        .ctx
        .db
        .sending()
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
        message_id: None,
    };
    outreach_core::inbound::replies::receive(&state.ctx, user.id, Some(&message), reply, "outbox")
        .await?;
    Ok(Json(OutboxReplied {
        success: true,
        status: "replied".into(),
    }))
}
