//! Business search and the user's businesses (A §5, §7 Businesses; B §2.14 search logs). A search runs as
//! `RunSearchChunk` jobs; the API waits a bounded time and answers with what it has, its status and its id.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::campaigns::CampaignPatch;
use outreach_core::discovery::import::RowError;
use outreach_core::discovery::search::{SearchRequest, SearchRow, SearchStatus};
use outreach_core::discovery::sources::provider::attributions;
use outreach_core::platform::jobs::RunSearchChunk;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::SignedIn;
use crate::{AppState, wait_for};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/businesses", get(list))
        .route("/api/businesses/recent", get(recent))
        .route(
            "/api/businesses/import",
            post(import).layer(DefaultBodyLimit::max(crate::campaigns::UPLOAD_BODY_LIMIT)),
        )
        .route("/api/businesses/search", post(search))
        .route("/api/businesses/{id}/social-media", post(social_media))
        .route("/api/businesses/search/{id}", get(progress))
        .route("/api/businesses/search/{id}/cancel", post(cancel))
        .route("/api/search-logs", get(logs))
}

const WAIT: Duration = Duration::from_secs(20);

/// `POST /api/businesses/search`.
pub async fn search(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<SearchRequest>,
) -> ApiResult<Response> {
    let params = request.validate().map_err(ApiError::validation)?;
    let now = state.ctx.now_ms();
    if let Some(campaign_id) = params.campaign_id {
        let mut campaign = state
            .ctx
            .db
            .find_campaign(campaign_id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
        let online = params.search_type == "online";
        let patch = CampaignPatch {
            business_type: if online {
                params.online_business_type.clone()
            } else {
                params.business_type.clone()
            },
            geographic_area: Some(if online {
                "online".to_string()
            } else {
                params.geographic_area.clone().unwrap_or_default()
            }),
            radius: params.radius,
            max_results: Some(params.max_results),
            status: Some("searching".to_string()),
            ..Default::default()
        };
        patch
            .apply(&mut campaign)
            .map_err(|error| ApiError::validation(error.to_string()))?;
        state.ctx.db.update_campaign(&campaign, now).await?;
    }
    let id = state.ctx.db.insert_search(user.id, &params, now).await?;
    let first = RunSearchChunk {
        search_id: id,
        chunk_number: 1,
    };
    state
        .ctx
        .queue
        .enqueue(first, Some(&format!("search:{id}:chunk:1")))
        .await?;
    let find = || async {
        state
            .ctx
            .db
            .find_search(id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Search not found"))
    };
    // The first chunk's outcome is the answer: its businesses (the UI polls for the rest, with progress), or why
    // the search cannot run.
    let row = wait_for(WAIT, find, |row| {
        row.status != SearchStatus::Running || row.chunks_done >= 1
    })
    .await?;
    answer(&state, &row).await
}

/// `GET /api/businesses/search/{id}`: progress and the businesses found so far.
pub async fn progress(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let row = state
        .ctx
        .db
        .find_search(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Search not found"))?;
    answer(&state, &row).await
}

/// `POST /api/businesses/search/{id}/cancel`: no further chunk runs.
pub async fn cancel(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    state
        .ctx
        .db
        .find_search(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Search not found"))?;
    state
        .ctx
        .db
        .stop_search(id, SearchStatus::Cancelled, None, state.ctx.now_ms())
        .await?;
    let row = state
        .ctx
        .db
        .find_search(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Search not found"))?;
    answer(&state, &row).await
}

/// A failed search answers 422 with its reason ('Search failed' in the UI); otherwise the businesses so far, 202
/// while chunks are still running.
async fn answer(state: &AppState, row: &SearchRow) -> ApiResult<Response> {
    if row.status == SearchStatus::Failed {
        let message = row
            .error
            .clone()
            .unwrap_or_else(|| "The search failed".to_string());
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "search_failed",
            message,
        ));
    }
    let rows = state.ctx.db.businesses_of_search(row.id).await?;
    let attribution = attributions(rows.iter().map(|business| business.provider.as_str()));
    let businesses: Vec<Value> = rows.iter().map(|business| business.view()).collect();
    let body = json!({
        "searchId": row.id,
        "status": row.status,
        "searchTerm": row.search_term,
        "chunksDone": row.chunks_done,
        "chunksTotal": row.chunks_total,
        "businessesFound": businesses.len(),
        "businesses": businesses,
        "attribution": attribution,
    });
    let status = if row.status == SearchStatus::Running {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(body)).into_response())
}

/// `GET /api/businesses`: the user's businesses, newest first.
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<Value>>> {
    let rows = state.ctx.db.list_businesses(user.id, 1000).await?;
    Ok(Json(rows.iter().map(|row| row.view()).collect()))
}

/// `GET /api/businesses/recent`.
pub async fn recent(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<Value>>> {
    let rows = state.ctx.db.list_businesses(user.id, 50).await?;
    Ok(Json(rows.iter().map(|row| row.view()).collect()))
}

/// `GET /api/search-logs`: the user's chunk logs, newest first.
pub async fn logs(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    Ok(Json(json!(state.ctx.db.search_logs(user.id, 500).await?)))
}

/// `POST /api/businesses/import` (multipart field `file`): a lead CSV. Answers `{imported, skipped, errors,
/// duplicates, businesses}`: bad rows and rows that duplicate one of the user's businesses are skipped, each reported
/// with its line and why; an unreadable file is refused whole.
pub async fn import(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    mut multipart: axum::extract::Multipart,
) -> ApiResult<Json<Value>> {
    let (name, bytes) = crate::upload::single_file(&mut multipart, Some("leads.csv")).await?;
    let parsed = outreach_core::discovery::import::parse_import(&bytes, &format!("import: {name}"))
        .map_err(ApiError::validation)?;
    let now = state.ctx.now_ms();
    let (mut businesses, mut duplicates) = (Vec::new(), Vec::new());
    for (line, candidate) in &parsed.rows {
        let (id, new) = state.ctx.db.add_business(user.id, candidate, now).await?;
        if new {
            if candidate.email.is_none() && candidate.website.is_some() {
                state
                    .ctx
                    .request_enrichment(id, &format!("enrich:{id}"))
                    .await?;
            }
            businesses.push(id);
        } else {
            let existing = state.ctx.db.find_business(id, user.id).await?;
            let name = existing.map_or_else(|| candidate.name.clone(), |business| business.name);
            duplicates.push(RowError {
                line: *line,
                message: format!("already in your businesses as {name}"),
            });
        }
    }
    // Newest first, as the business list shows them.
    businesses.reverse();
    let views: Vec<Value> = state
        .ctx
        .db
        .find_businesses(&businesses, user.id)
        .await?
        .iter()
        .map(|row| row.view())
        .collect();
    Ok(Json(json!({
        "imported": businesses.len(),
        "skipped": duplicates.len() + parsed.errors.len(),
        "errors": parsed.errors,
        "duplicates": duplicates,
        "businesses": views,
    })))
}

/// `POST /api/businesses/{id}/social-media`: reads the business's website again now and answers its profiles.
pub async fn social_media(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    let business = state
        .ctx
        .db
        .find_business(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Business not found"))?;
    if business.website.is_none() {
        return Err(ApiError::validation(
            "This business has no website to look up",
        ));
    }
    let asked = state.ctx.now_ms();
    state
        .ctx
        .request_enrichment(id, &format!("social:{id}:{asked}"))
        .await?;
    let find = || async {
        state
            .ctx
            .db
            .find_business(id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Business not found"))
    };
    let row = wait_for(WAIT, find, |row| {
        row.enriched_at.is_some_and(|at| at >= asked)
    })
    .await?;
    if row.enriched_at.is_none_or(|at| at < asked) {
        return Err(ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "lookup_pending",
            "The website is still being read. Try again in a moment.",
        ));
    }
    let view = row.view();
    Ok(Json(
        json!({ "socialMedia": view["socialMedia"], "business": view }),
    ))
}
