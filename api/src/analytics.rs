//! Campaign analytics (B §2.4, §2.10, §2.11, §7): `GET /api/analytics/campaigns` (each campaign with its summary
//! and latest emails), `GET /api/analytics/daily` and `GET /api/campaigns/{id}/daily` (per-day chart series),
//! and `GET /api/campaigns/{id}/details` (campaign, summary and a page of its messages). All read the user's own
//! campaigns only.

use axum::Json;
use axum::extract::{Path, Query, State};
use outreach_core::tracking::analytics::{CampaignAnalytics, CampaignDetails, DayPoint};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::emails::Page;
use crate::error::{ApiError, ApiResult};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;
use outreach_core::tracking::senders::SenderFigures;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(campaigns))
        .routes(routes!(daily))
        .routes(routes!(senders))
        .routes(routes!(campaign_daily))
        .routes(routes!(details))
}

const PAGE_MAX: i64 = 500;
const DAYS_DEFAULT: i64 = 30;
const DAYS_MAX: i64 = 365;
const NOT_FOUND: &str = "Campaign not found";

/// Each of the user's campaigns with its summary and latest emails.
#[utoipa::path(get, path = "/api/analytics/campaigns", tag = "analytics",
    responses((status = 200, body = Vec<CampaignAnalytics>)))]
pub async fn campaigns(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<CampaignAnalytics>>> {
    let campaigns = state.ctx.db.tracking().campaigns_analytics(user.id).await?;
    Ok(Json(campaigns))
}

/// How many days back a series goes: `days` (default 30, 1 to 365).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct Range {
    days: Option<i64>,
}

impl Range {
    fn days(&self) -> i64 {
        self.days.unwrap_or(DAYS_DEFAULT).clamp(1, DAYS_MAX)
    }
}

/// A per-day series of sends and engagement (UTC days, oldest first).
#[derive(Debug, Serialize, ToSchema)]
pub struct DailySeries {
    pub days: Vec<DayPoint>,
}

/// Every campaign of the user, per UTC day.
#[utoipa::path(get, path = "/api/analytics/daily", tag = "analytics", params(Range),
    responses((status = 200, body = DailySeries)))]
pub async fn daily(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(range): Query<Range>,
) -> ApiResult<Json<DailySeries>> {
    let days = state
        .ctx
        .db
        .tracking()
        .daily_activity(user.id, None, range.days(), state.ctx.now_ms())
        .await?;
    Ok(Json(DailySeries { days }))
}

/// Each of the user's senders: sent, bounced, replied and spam complaints (issue 79).
#[utoipa::path(get, path = "/api/analytics/senders", tag = "analytics",
    responses((status = 200, body = Vec<SenderFigures>)))]
pub async fn senders(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<SenderFigures>>> {
    Ok(Json(state.ctx.db.tracking().sender_figures(user.id).await?))
}

/// One campaign, per UTC day.
#[utoipa::path(get, path = "/api/campaigns/{id}/daily", tag = "analytics", params(("id" = i64, Path), Range), responses(
    (status = 200, body = DailySeries),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn campaign_daily(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Query(range): Query<Range>,
) -> ApiResult<Json<DailySeries>> {
    let db = &state.ctx.db;
    if db
        .tracking()
        .campaign_totals(user.id, Some(id))
        .await?
        .is_empty()
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let days = db
        .tracking()
        .daily_activity(user.id, Some(id), range.days(), state.ctx.now_ms())
        .await?;
    Ok(Json(DailySeries { days }))
}

/// A campaign, its summary and a page of its messages in the order they were queued (200 by default).
#[utoipa::path(get, path = "/api/campaigns/{id}/details", tag = "analytics", params(("id" = i64, Path), Page), responses(
    (status = 200, body = CampaignDetails),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn details(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Query(page): Query<Page>,
) -> ApiResult<Json<CampaignDetails>> {
    let limit = page.limit.unwrap_or(200).clamp(1, PAGE_MAX);
    let offset = page.offset.unwrap_or(0).max(0);
    let details = state
        .ctx
        .db
        .tracking()
        .campaign_details(user.id, id, limit, offset)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(details))
}
