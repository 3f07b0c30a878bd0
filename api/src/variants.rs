//! A/B variants of a campaign (issue 81): `GET /api/campaigns/{id}/variants` answers each step's variants with their
//! figures and the probability each is best on positive replies (deciding any winner the rule now finds), and
//! `POST /api/campaigns/{id}/variants/winner` is the user's own pick. Another user's campaign answers 404.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::campaigns::CampaignRow;
use outreach_core::campaigns::variants::VariantError;
use outreach_core::tracking::variants::{PickRefused, VariantFigures, pick, variant_figures};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(pick_winner))
}

/// A 400 naming the field of a refused variant.
pub fn invalid_variant(error: &VariantError) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid_variant",
        error.to_string(),
    )
}

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<CampaignRow> {
    state
        .ctx
        .db
        .campaigns()
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))
}

/// Each step's variants with their sends, human opens (null when opens are not tracked), replies, positive
/// replies, the probability each is best on positive replies, and the winner with when and why it won.
#[utoipa::path(get, path = "/api/campaigns/{id}/variants", tag = "campaigns", params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<VariantFigures>),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Vec<VariantFigures>>> {
    let campaign = owned(&state, id, user.id).await?;
    Ok(Json(variant_figures(&state.ctx, &campaign).await?))
}

/// The user's pick of a step's winner.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WinnerPick {
    /// 0 for the first email, n for follow-up n.
    pub step: i32,
    /// 0 for A, 1 for B, and so on.
    pub variant: i32,
}

/// Picks a step's winner by hand: the step's waiting messages and every new one use it.
#[utoipa::path(post, path = "/api/campaigns/{id}/variants/winner", tag = "campaigns", params(("id" = i64, Path)),
    request_body = WinnerPick, responses(
    (status = 200, body = Vec<VariantFigures>),
    (status = 400, description = "The step has no variants, or no such variant (the field is named)", body = ErrorBody),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn pick_winner(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<WinnerPick>,
) -> ApiResult<Json<Vec<VariantFigures>>> {
    let campaign = owned(&state, id, user.id).await?;
    pick(&state.ctx, &campaign, request.step, request.variant)
        .await
        .map_err(|refused| match refused {
            PickRefused::Invalid(error) => ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_variant",
                error.to_string(),
            ),
            PickRefused::Store(error) => error.into(),
        })?;
    Ok(Json(variant_figures(&state.ctx, &campaign).await?))
}
