//! `POST /api/emails/generate` (A §7): validates the brief, enqueues a `GenerateEmail` job and waits for its
//! result with a bound; past the bound it answers 202 with an id to poll at `GET /api/emails/generate/{id}`.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::platform::jobs::GenerateEmail;
use outreach_core::writing::ai::Brief;
use outreach_core::writing::generations::GenerationRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::SignedIn;
use crate::{AppState, wait_for};

use axum::Router;
use axum::routing::{get, post};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/emails/generate", post(generate))
        .route("/api/emails/generate/{id}", get(status))
}

pub async fn generate(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(mut brief): JsonBody<Brief>,
) -> ApiResult<Response> {
    brief.validate().map_err(ApiError::validation)?;
    if let Some(campaign_id) = brief.campaign_id
        && state
            .ctx
            .db
            .find_campaign(campaign_id, user.id)
            .await?
            .is_none()
    {
        return Err(ApiError::not_found("Campaign not found"));
    }
    let request = serde_json::to_string(&brief).map_err(ApiError::internal)?;
    let id = state
        .ctx
        .db
        .insert_generation(user.id, &request, state.ctx.now_ms())
        .await?;
    state
        .ctx
        .queue
        .enqueue(GenerateEmail { generation_id: id }, None)
        .await?;
    let bound = Duration::from_secs(state.ctx.settings.ai.wait_seconds);
    let find = || async {
        state
            .ctx
            .db
            .find_generation(id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Generation not found"))
    };
    let row = wait_for(bound, find, |row| row.status != "pending").await?;
    Ok(answer(&row))
}

/// `GET /api/emails/generate/{id}`.
pub async fn status(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let row = state
        .ctx
        .db
        .find_generation(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Generation not found"))?;
    Ok(answer(&row))
}

/// Done: the draft. Failed: the provider's error, worded for the composer's messages. Pending: 202 with the id.
fn answer(row: &GenerationRow) -> Response {
    match row.status.as_str() {
        "done" => {
            let mut result: Value = row
                .result
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_default();
            result["generationId"] = json!(row.id);
            Json(result).into_response()
        }
        "failed" => {
            let message = row
                .error
                .clone()
                .unwrap_or_else(|| "Generation failed".to_string());
            let status = if message.starts_with("Service limit reached") {
                StatusCode::TOO_MANY_REQUESTS
            } else if message.starts_with("AI service unavailable") {
                StatusCode::SERVICE_UNAVAILABLE
            } else {
                StatusCode::BAD_GATEWAY
            };
            ApiError::new(status, "generation_failed", message).into_response()
        }
        _ => (
            StatusCode::ACCEPTED,
            Json(json!({ "generationId": row.id, "status": "pending" })),
        )
            .into_response(),
    }
}
