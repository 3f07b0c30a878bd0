//! Campaign analytics (B §2.4, §2.10, §2.11, §7): `GET /api/analytics/campaigns` (each campaign with its summary
//! and latest emails), `GET /api/analytics/daily` and `GET /api/campaigns/{id}/daily` (per-day chart series),
//! and `GET /api/campaigns/{id}/details` (campaign, summary and a page of its messages). All read the user's own
//! campaigns only.

use axum::Json;
use axum::extract::{Path, Query, State};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::session::SignedIn;

use axum::Router;
use axum::routing::get;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/analytics/campaigns", get(campaigns))
        .route("/api/analytics/daily", get(daily))
        .route("/api/campaigns/{id}/daily", get(campaign_daily))
        .route("/api/campaigns/{id}/details", get(details))
}

const PAGE_MAX: i64 = 500;
const DAYS_DEFAULT: i64 = 30;
const DAYS_MAX: i64 = 365;
const NOT_FOUND: &str = "Campaign not found";

/// `GET /api/analytics/campaigns`.
pub async fn campaigns(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let campaigns = state.ctx.db.campaigns_analytics(user.id).await?;
    Ok(Json(json!(campaigns)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Range {
    days: Option<i64>,
}

impl Range {
    fn days(&self) -> i64 {
        self.days.unwrap_or(DAYS_DEFAULT).clamp(1, DAYS_MAX)
    }
}

/// `GET /api/analytics/daily?days=`: every campaign of the user, per UTC day.
pub async fn daily(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(range): Query<Range>,
) -> ApiResult<Json<Value>> {
    let days = state
        .ctx
        .db
        .daily_activity(user.id, None, range.days(), state.ctx.now_ms())
        .await?;
    Ok(Json(json!({ "days": days })))
}

/// `GET /api/campaigns/{id}/daily?days=`.
pub async fn campaign_daily(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Query(range): Query<Range>,
) -> ApiResult<Json<Value>> {
    let db = &state.ctx.db;
    if db.campaign_totals(user.id, Some(id)).await?.is_empty() {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let days = db
        .daily_activity(user.id, Some(id), range.days(), state.ctx.now_ms())
        .await?;
    Ok(Json(json!({ "days": days })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Page {
    limit: Option<i64>,
    offset: Option<i64>,
}

/// `GET /api/campaigns/{id}/details?limit=&offset=` (messages in the order they were queued, 200 by default).
pub async fn details(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    Query(page): Query<Page>,
) -> ApiResult<Json<Value>> {
    let limit = page.limit.unwrap_or(200).clamp(1, PAGE_MAX);
    let offset = page.offset.unwrap_or(0).max(0);
    let details = state
        .ctx
        .db
        .campaign_details(user.id, id, limit, offset)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(json!(details)))
}
