//! Business search and the user's businesses (A §5, §7 Businesses; B §2.14 search logs). A search runs as
//! `RunSearchChunk` jobs; the API waits a bounded time and answers with what it has, its status and its id.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::campaigns::CampaignPatch;
use outreach_core::discovery::businesses::BusinessView;
use outreach_core::discovery::import::RowError;
use outreach_core::discovery::resume::queue_chunk;
use outreach_core::discovery::search::SearchLog;
use outreach_core::discovery::search::{SearchRequest, SearchRow, SearchStatus};
use outreach_core::discovery::sources::provider::attributions;
use outreach_core::platform::jobs::EnrichBusiness;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;
use crate::upload::FileUpload;
use crate::{AppState, wait_for};

use axum::extract::DefaultBodyLimit;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(recent))
        .routes(routes!(import).layer(DefaultBodyLimit::max(crate::campaigns::UPLOAD_BODY_LIMIT)))
        .routes(routes!(search))
        .routes(routes!(social_media))
        .routes(routes!(progress))
        .routes(routes!(cancel))
        .routes(routes!(logs))
}

/// A search as it stands: its businesses so far and its progress through the chunks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchAnswer {
    pub search_id: i64,
    pub status: SearchStatus,
    pub search_term: String,
    pub chunks_done: i32,
    pub chunks_total: i32,
    pub businesses_found: usize,
    pub businesses: Vec<BusinessView>,
    /// The credit the providers' terms ask for, to show with the results.
    pub attribution: String,
}

const WAIT: Duration = Duration::from_secs(20);

/// Starts a search (A §5): it runs in chunks on the queue; the answer waits for the first chunk (up to 20 s).
#[utoipa::path(post, path = "/api/businesses/search", tag = "businesses", request_body = SearchRequest, responses(
    (status = 200, description = "The search is done", body = SearchAnswer),
    (status = 202, description = "Chunks are still running; poll the search", body = SearchAnswer),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 422, description = "A search field is missing or out of range, or the search failed", body = ErrorBody)))]
pub async fn search(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<SearchRequest>,
) -> ApiResult<Response> {
    let params = request.validate().map_err(ApiError::validation)?;
    let now = state.ctx.now_ms();
    // The campaign the search is for remembers it (the builder shows its results again after a reload).
    let mut campaign = None;
    if let Some(campaign_id) = params.campaign_id {
        let mut row = state
            .ctx
            .db
            .campaigns()
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
        let progress = state
            .ctx
            .db
            .sending()
            .campaign_progress(campaign_id)
            .await?;
        patch
            .apply(&mut row, progress.waiting())
            .map_err(|error| ApiError::validation(error.to_string()))?;
        campaign = Some(row);
    }
    let id = state
        .ctx
        .db
        .discovery()
        .insert_search(user.id, &params, now)
        .await?;
    if let Some(mut campaign) = campaign {
        campaign.search_id = Some(id);
        state
            .ctx
            .db
            .campaigns()
            .update_campaign(&campaign, now)
            .await?;
    }
    queue_chunk(&state.ctx, id, 1).await?;
    let find = || async {
        state
            .ctx
            .db
            .discovery()
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

/// A search's progress and the businesses found so far.
#[utoipa::path(get, path = "/api/businesses/search/{id}", tag = "businesses", params(("id" = i64, Path)), responses(
    (status = 200, description = "The search is done", body = SearchAnswer),
    (status = 202, description = "Chunks are still running", body = SearchAnswer),
    (status = 404, description = "Search not found", body = ErrorBody),
    (status = 422, description = "The search failed", body = ErrorBody)))]
pub async fn progress(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let row = state
        .ctx
        .db
        .discovery()
        .find_search(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Search not found"))?;
    answer(&state, &row).await
}

/// Cancels a search: no further chunk runs.
#[utoipa::path(post, path = "/api/businesses/search/{id}/cancel", tag = "businesses", params(("id" = i64, Path)), responses(
    (status = 200, body = SearchAnswer),
    (status = 404, description = "Search not found", body = ErrorBody)))]
pub async fn cancel(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    state
        .ctx
        .db
        .discovery()
        .find_search(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Search not found"))?;
    state
        .ctx
        .db
        .discovery()
        .stop_search(id, SearchStatus::Cancelled, None, state.ctx.now_ms())
        .await?;
    let row = state
        .ctx
        .db
        .discovery()
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
    let rows = state
        .ctx
        .db
        .discovery()
        .businesses_of_search(row.id)
        .await?;
    let attribution = attributions(rows.iter().map(|business| business.provider.as_str()));
    let businesses: Vec<BusinessView> = rows.iter().map(|business| business.view()).collect();
    let body = SearchAnswer {
        search_id: row.id,
        status: row.status,
        search_term: row.search_term.clone(),
        chunks_done: row.chunks_done,
        chunks_total: row.chunks_total,
        businesses_found: businesses.len(),
        businesses,
        attribution,
    };
    let status = if row.status == SearchStatus::Running {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(body)).into_response())
}

/// The user's businesses, newest first (up to 1,000).
#[utoipa::path(get, path = "/api/businesses", tag = "businesses", responses((status = 200, body = Vec<BusinessView>)))]
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<BusinessView>>> {
    let rows = state
        .ctx
        .db
        .discovery()
        .list_businesses(user.id, 1000)
        .await?;
    Ok(Json(rows.iter().map(|row| row.view()).collect()))
}

/// The user's 50 newest businesses.
#[utoipa::path(get, path = "/api/businesses/recent", tag = "businesses", responses((status = 200, body = Vec<BusinessView>)))]
pub async fn recent(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<BusinessView>>> {
    let rows = state
        .ctx
        .db
        .discovery()
        .list_businesses(user.id, 50)
        .await?;
    Ok(Json(rows.iter().map(|row| row.view()).collect()))
}

/// The user's search chunk logs, newest first (B §2.14).
#[utoipa::path(get, path = "/api/search-logs", tag = "businesses", responses((status = 200, body = Vec<SearchLog>)))]
pub async fn logs(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<SearchLog>>> {
    Ok(Json(
        state.ctx.db.discovery().search_logs(user.id, 500).await?,
    ))
}

/// What a lead import did.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportReport {
    pub imported: usize,
    pub skipped: usize,
    /// Rows that could not be read, with their line and why.
    pub errors: Vec<RowError>,
    /// Rows that duplicate one of the user's businesses.
    pub duplicates: Vec<RowError>,
    /// The businesses added.
    pub businesses: Vec<BusinessView>,
}

/// Waits for the website lookup queued with `key` to finish: this request's own job, not a lookup another job
/// finished meanwhile (which would answer before this one ran, and let it overwrite what the user does next). 504 when
/// it takes longer than the wait.
pub(crate) async fn website_read(state: &AppState, key: &str) -> ApiResult<()> {
    let finished =
        || async { Ok::<_, ApiError>(state.ctx.queue.finished::<EnrichBusiness>(key).await?) };
    if wait_for(WAIT, finished, |done| *done).await? {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "lookup_pending",
            "The website is still being read. Try again in a moment.",
        ))
    }
}

/// Imports a lead CSV: bad rows and rows that duplicate one of the user's businesses are skipped, each reported
/// with its line and why; an unreadable file is refused whole.
#[utoipa::path(post, path = "/api/businesses/import", tag = "businesses",
    request_body(content = FileUpload, content_type = "multipart/form-data"), responses(
        (status = 200, body = ImportReport),
        (status = 413, description = "The file is larger than 10MB", body = ErrorBody),
        (status = 422, description = "The file is not a readable lead CSV", body = ErrorBody)))]
pub async fn import(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    mut multipart: axum::extract::Multipart,
) -> ApiResult<Json<ImportReport>> {
    let (name, bytes) = crate::upload::single_file(&mut multipart, Some("leads.csv")).await?;
    let parsed = outreach_core::discovery::import::parse_import(&bytes, &format!("import: {name}"))
        .map_err(ApiError::validation)?;
    let now = state.ctx.now_ms();
    let (mut businesses, mut duplicates) = (Vec::new(), Vec::new());
    for (line, candidate) in &parsed.rows {
        let (id, new) = state
            .ctx
            .db
            .discovery()
            .add_business(user.id, candidate, now)
            .await?;
        if new {
            // The site is read for an address, and for its icebreaker's facts when the file gave the address.
            if candidate.website.is_some() {
                state
                    .ctx
                    .request_enrichment(id, &format!("enrich:{id}"))
                    .await?;
            }
            businesses.push(id);
        } else {
            let existing = state.ctx.db.discovery().find_business(id, user.id).await?;
            let name = existing.map_or_else(|| candidate.name.clone(), |business| business.name);
            duplicates.push(RowError {
                line: *line,
                message: format!("already in your businesses as {name}"),
            });
        }
    }
    // Newest first, as the business list shows them.
    businesses.reverse();
    let views: Vec<BusinessView> = state
        .ctx
        .db
        .discovery()
        .find_businesses(&businesses, user.id)
        .await?
        .iter()
        .map(|row| row.view())
        .collect();
    Ok(Json(ImportReport {
        imported: businesses.len(),
        skipped: duplicates.len() + parsed.errors.len(),
        errors: parsed.errors,
        duplicates,
        businesses: views,
    }))
}

/// A business's social profiles, with the business as it now stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SocialLookup {
    pub social_media: Vec<outreach_core::discovery::enrich::SocialProfile>,
    pub business: BusinessView,
}

/// Reads the business's website again now and answers its social profiles.
#[utoipa::path(post, path = "/api/businesses/{id}/social-media", tag = "businesses", params(("id" = i64, Path)), responses(
    (status = 200, body = SocialLookup),
    (status = 404, description = "Business not found", body = ErrorBody),
    (status = 422, description = "This business has no website to look up", body = ErrorBody),
    (status = 504, description = "The website is still being read. Try again in a moment.", body = ErrorBody)))]
pub async fn social_media(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<SocialLookup>> {
    let business = state
        .ctx
        .db
        .discovery()
        .find_business(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Business not found"))?;
    if business.website.is_none() {
        return Err(ApiError::validation(
            "This business has no website to look up",
        ));
    }
    let key = format!("social:{id}:{}", state.ctx.now_ms());
    state.ctx.request_enrichment(id, &key).await?;
    website_read(&state, &key).await?;
    let business = state
        .ctx
        .db
        .discovery()
        .find_business(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Business not found"))?
        .view();
    Ok(Json(SocialLookup {
        social_media: business.social_media.clone(),
        business,
    }))
}
