//! What providers post back. `POST /api/webhooks/sendgrid/events`: SendGrid's signed Event Webhook (ECDSA over
//! timestamp and raw body, a timestamp window, each signed payload accepted once); its delivered, open, click, bounce,
//! dropped, spamreport and unsubscribe events are applied to the messages they name. `POST
//! /api/webhooks/sendgrid/inbound/{secret}`: SendGrid Inbound Parse (raw MIME) for replies to Level 2/3 addresses,
//! read as a reply, an automatic answer or a bounce and matched to the message it answers (its Message-ID, else the
//! latest message to the sender). A refused request changes nothing.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use outreach_core::inbound::feedback::Outcome;
use outreach_core::inbound::sendgrid_webhook::{
    Event, Meaning, WINDOW_SECONDS, payload_hash, verify,
};
use outreach_core::platform::clock::SECOND_MS;
use outreach_core::platform::telemetry;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::openapi::ErrorBody;

use axum::extract::DefaultBodyLimit;

/// The endpoints of this module, public (each checks its own signature or secret).
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sendgrid_events))
        .routes(
            routes!(sendgrid_inbound)
                .layer(DefaultBodyLimit::max(crate::campaigns::UPLOAD_BODY_LIMIT)),
        )
}

/// What a batch of SendGrid events did.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventsReceived {
    pub received: usize,
    /// Events that named one of our messages.
    pub applied: usize,
}

/// Whether an inbound mail answered one of our messages, and what it was.
#[derive(Debug, Serialize, ToSchema)]
pub struct InboundReceived {
    pub matched: bool,
    /// `reply`, `auto_reply` or `bounce`, when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// SendGrid's multipart inbound form (raw posting on).
#[derive(ToSchema)]
pub struct InboundForm {
    /// The raw message.
    pub email: String,
    /// The address it was sent to.
    pub to: String,
}

const SIGNATURE: &str = "x-twilio-email-event-webhook-signature";
const TIMESTAMP: &str = "x-twilio-email-event-webhook-timestamp";

fn refused(reason: &str) -> ApiError {
    tracing::warn!(reason, "SendGrid webhook refused");
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "invalid_signature",
        "The webhook signature is not valid",
    )
}

/// SendGrid's Event Webhook (signed with ECDSA; deliveries, bounces, spam reports, unsubscribes), each signed
/// payload applied once.
#[utoipa::path(post, path = "/api/webhooks/sendgrid/events", tag = "webhooks",
    params(("x-twilio-email-event-webhook-signature" = String, Header), ("x-twilio-email-event-webhook-timestamp" = String, Header)),
    request_body(content = Vec<Object>, description = "SendGrid's event array"), responses(
        (status = 200, body = EventsReceived),
        (status = 401, description = "The webhook signature is not valid (or a replay)", body = ErrorBody),
        (status = 422, description = "The webhook body must be a JSON array of events", body = ErrorBody)))]
pub async fn sendgrid_events(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<EventsReceived>> {
    counted(
        "sendgrid_events",
        receive_events(&state, &headers, &body).await,
    )
}

async fn receive_events(
    state: &AppState,
    headers: &HeaderMap,
    body: &Bytes,
) -> ApiResult<Json<EventsReceived>> {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let now = state.ctx.now_ms();
    verify(
        &state.ctx.settings.sendgrid.webhook_public_key,
        header(SIGNATURE),
        header(TIMESTAMP),
        body,
        now / SECOND_MS,
    )
    .map_err(|refusal| refused(&refusal.to_string()))?;
    let events: Vec<Event> = serde_json::from_slice(body)
        .map_err(|_| ApiError::validation("The webhook body must be a JSON array of events"))?;
    let payload = payload_hash(header(TIMESTAMP).unwrap_or_default(), body);
    let window_ms = WINDOW_SECONDS * SECOND_MS;
    if !state
        .ctx
        .db
        .inbound()
        .first_receipt(&payload, now, now - 2 * window_ms)
        .await?
    {
        return Err(refused("replayed request"));
    }
    let applied = match apply_events(state, &events, now).await {
        Ok(applied) => applied,
        Err(error) => {
            // Nothing is lost: the retry SendGrid makes after an error must not count as a replay.
            state.ctx.db.inbound().forget_receipt(&payload).await.ok();
            return Err(error);
        }
    };
    Ok(Json(EventsReceived {
        received: events.len(),
        applied,
    }))
}

/// SendGrid's Inbound Parse (raw posting): replies, automatic answers and bounces to our messages.
#[utoipa::path(post, path = "/api/webhooks/sendgrid/inbound/{secret}", tag = "webhooks",
    params(("secret" = String, Path, description = "`sendgrid.inbound_secret`")),
    request_body(content = InboundForm, content_type = "multipart/form-data"), responses(
        (status = 200, body = InboundReceived),
        (status = 404, description = "Not this instance's secret", body = ErrorBody),
        (status = 422, description = "The raw message is missing or unreadable", body = ErrorBody)))]
pub async fn sendgrid_inbound(
    State(state): State<AppState>,
    Path(secret): Path<String>,
    form: Multipart,
) -> ApiResult<Json<InboundReceived>> {
    counted(
        "sendgrid_inbound",
        receive_inbound(&state, &secret, form).await,
    )
}

/// Counts a webhook request by what became of it: accepted, refused (a bad signature or secret), invalid (a body
/// that cannot be read) or failed (our error; the provider retries).
fn counted<T>(endpoint: &'static str, result: ApiResult<T>) -> ApiResult<T> {
    let outcome = match &result {
        Ok(_) => "accepted",
        Err(error)
            if matches!(
                error.status,
                StatusCode::UNAUTHORIZED | StatusCode::NOT_FOUND
            ) =>
        {
            "refused"
        }
        Err(error) if error.status.is_client_error() => "invalid",
        Err(_) => "failed",
    };
    telemetry::webhook(endpoint, outcome);
    result
}

async fn receive_inbound(
    state: &AppState,
    secret: &str,
    mut form: Multipart,
) -> ApiResult<Json<InboundReceived>> {
    let expected = &state.ctx.settings.sendgrid.inbound_secret;
    if expected.is_empty() || secret != expected.expose() {
        return Err(ApiError::not_found("No such endpoint"));
    }
    let (mut raw, mut to) = (None, None);
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|_| ApiError::validation("The inbound form could not be read"))?
    {
        match field.name() {
            Some("email") => {
                raw = Some(
                    field
                        .bytes()
                        .await
                        .map_err(|_| ApiError::validation("The inbound form could not be read"))?,
                )
            }
            Some("to") => to = field.text().await.ok(),
            _ => {}
        }
    }
    let raw = raw.ok_or_else(|| {
        ApiError::validation("The raw message (email) is missing: turn on raw posting")
    })?;
    let inbound = outreach_core::inbound::mail::read(&raw)
        .ok_or_else(|| ApiError::validation("The message could not be read"))?;
    let kind = inbound.kind.name().to_string();
    let matched = outreach_core::inbound::replies::receive_addressed(
        &state.ctx,
        inbound,
        to.as_deref(),
        "sendgrid-inbound",
    )
    .await?;
    if !matched {
        // Nobody's mail: acknowledged so SendGrid does not retry it, and not kept.
        return Ok(Json(InboundReceived {
            matched: false,
            kind: None,
        }));
    }
    Ok(Json(InboundReceived {
        matched: true,
        kind: Some(kind),
    }))
}

/// Applies the events that name one of our messages; returns how many did.
async fn apply_events(state: &AppState, events: &[Event], now: i64) -> ApiResult<usize> {
    let mut applied = 0;
    for event in events {
        let outcome = match event.meaning() {
            Meaning::Delivered => Outcome::Delivered,
            Meaning::Open => Outcome::Opened,
            Meaning::Click(url) => Outcome::Clicked(url),
            Meaning::Bounce { hard, reason } => Outcome::Bounced { hard, reason },
            Meaning::Spam => Outcome::Spam,
            Meaning::Unsubscribe => Outcome::Unsubscribed,
            Meaning::Ignored => continue,
        };
        let Some(message_id) = event.outreach_message.as_deref() else {
            continue;
        };
        let Some(message) = state
            .ctx
            .db
            .inbound()
            .find_sent_by_message_id(message_id)
            .await?
        else {
            continue;
        };
        let at = event.timestamp.map_or(now, |seconds| seconds * SECOND_MS);
        state
            .ctx
            .db
            .inbound()
            .apply_outcome(&message, &outcome, at)
            .await?;
        applied += 1;
    }
    Ok(applied)
}
