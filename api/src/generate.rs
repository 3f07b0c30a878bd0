//! `POST /api/emails/generate` (A §7): validates the brief, enqueues a `GenerateEmail` job and waits for its
//! result with a bound; past the bound it answers 202 with an id to poll at `GET /api/emails/generate/{id}`.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::platform::jobs::GenerateEmail;
use outreach_core::writing::ai::Brief;
use outreach_core::writing::generations::{Generated, GenerationRow, GenerationStatus};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;
use crate::{AppState, wait_for};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(generate))
        .routes(routes!(status))
}

/// A written email, with the id of its generation.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedEmail {
    #[serde(flatten)]
    pub generated: Generated,
    pub generation_id: i64,
}

/// A generation still running: ask again at `GET /api/emails/generate/{generationId}`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerationPending {
    pub generation_id: i64,
    /// Always `pending`.
    pub status: GenerationStatus,
}

/// Writes an email from a brief (A §7): the job runs on the queue; the answer waits for it up to `ai.wait_seconds`.
#[utoipa::path(post, path = "/api/emails/generate", tag = "writing", request_body = Brief, responses(
    (status = 200, body = GeneratedEmail),
    (status = 202, description = "Still writing; poll its id", body = GenerationPending),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 422, description = "A required field of the brief is missing", body = ErrorBody),
    (status = 429, description = "Service limit reached (the AI provider's quota)", body = ErrorBody),
    (status = 502, description = "The AI provider failed", body = ErrorBody),
    (status = 503, description = "AI service unavailable", body = ErrorBody)))]
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
            .campaigns()
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
        .writing()
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
            .writing()
            .find_generation(id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Generation not found"))
    };
    let row = wait_for(bound, find, |row| row.status != GenerationStatus::Pending).await?;
    Ok(answer(&row))
}

/// A generation's result, or still pending.
#[utoipa::path(get, path = "/api/emails/generate/{id}", tag = "writing", params(("id" = i64, Path)), responses(
    (status = 200, body = GeneratedEmail),
    (status = 202, description = "Still writing", body = GenerationPending),
    (status = 404, description = "Generation not found", body = ErrorBody),
    (status = 429, description = "Service limit reached", body = ErrorBody),
    (status = 502, description = "The AI provider failed", body = ErrorBody),
    (status = 503, description = "AI service unavailable", body = ErrorBody)))]
pub async fn status(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let row = state
        .ctx
        .db
        .writing()
        .find_generation(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Generation not found"))?;
    Ok(answer(&row))
}

/// Done: the draft. Failed: the provider's error, worded for the composer's messages. Pending: 202 with the id.
fn answer(row: &GenerationRow) -> Response {
    match row.status {
        GenerationStatus::Done => {
            match row.result.as_deref().map(serde_json::from_str::<Generated>) {
                Some(Ok(generated)) => Json(GeneratedEmail {
                    generated,
                    generation_id: row.id,
                })
                .into_response(),
                _ => ApiError::internal(format!("generation {} has no readable result", row.id))
                    .into_response(),
            }
        }
        GenerationStatus::Failed => {
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
        GenerationStatus::Pending => (
            StatusCode::ACCEPTED,
            Json(GenerationPending {
                generation_id: row.id,
                status: GenerationStatus::Pending,
            }),
        )
            .into_response(),
    }
}
