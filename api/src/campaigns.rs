//! Campaigns (A §7, B §7): list, create, every `PUT` variant, delete, and the AI education files. Another user's
//! campaign answers 404 and changes nothing.

use axum::Json;
use axum::extract::{Multipart, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::campaigns::education::MAX_FILE_BYTES;
use outreach_core::campaigns::store::NewCampaign;
use outreach_core::campaigns::{
    CampaignPatch, CampaignRow, CampaignStatus, CampaignView, DEFAULT_MAX_RESULTS, DEFAULT_RADIUS,
    EducationFile, valid_max_results, valid_name, valid_radius,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::senders::request::owned_pool;
use crate::session::SignedIn;
use crate::upload::FileUpload;
use outreach_core::sending::health::pool_changed;

use axum::extract::DefaultBodyLimit;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(show, update, delete))
        .routes(routes!(upload_education_file).layer(DefaultBodyLimit::max(UPLOAD_BODY_LIMIT)))
}

const NOT_FOUND: &str = "Campaign not found";

/// Room for a 10 MB file plus the multipart envelope, so oversized files get the spec's message.
pub const UPLOAD_BODY_LIMIT: usize = MAX_FILE_BYTES + 1024 * 1024;

async fn view(state: &AppState, row: &CampaignRow) -> ApiResult<CampaignView> {
    let files = state
        .ctx
        .db
        .campaigns()
        .list_education_files(row.id)
        .await?;
    let mut view = row.view(&files);
    view.email_config_ids = state
        .ctx
        .db
        .sending()
        .campaign_pool(row.id)
        .await?
        .iter()
        .map(|config| config.id)
        .collect();
    Ok(view)
}

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<CampaignRow> {
    state
        .ctx
        .db
        .campaigns()
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

/// The user's campaigns, newest first.
#[utoipa::path(get, path = "/api/campaigns", tag = "campaigns", responses((status = 200, body = Vec<CampaignView>)))]
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<CampaignView>>> {
    let mut views = Vec::new();
    for row in state.ctx.db.campaigns().list_campaigns(user.id).await? {
        views.push(view(&state, &row).await?);
    }
    Ok(Json(views))
}

/// One campaign.
#[utoipa::path(get, path = "/api/campaigns/{id}", tag = "campaigns", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignView),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignView>> {
    let row = owned(&state, id, user.id).await?;
    Ok(Json(view(&state, &row).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCampaign {
    name: Option<String>,
    business_type: Option<String>,
    geographic_area: Option<String>,
    radius: Option<i32>,
    max_results: Option<i32>,
    status: Option<String>,
    /// The user's IANA time zone (the browser's): the new campaign's sending window is read in it for recipients
    /// whose own zone is unknown. UTC when absent or unknown.
    time_zone: Option<String>,
}

/// A new draft campaign (radius 25, at most 50 results unless given).
#[utoipa::path(post, path = "/api/campaigns", tag = "campaigns", request_body = CreateCampaign, responses(
    (status = 201, body = CampaignView),
    (status = 422, description = "Campaign name is required, or a value out of range", body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(form): JsonBody<CreateCampaign>,
) -> ApiResult<Response> {
    let invalid =
        |error: outreach_core::campaigns::CampaignError| ApiError::validation(error.to_string());
    let name = valid_name(form.name.as_deref().unwrap_or_default()).map_err(invalid)?;
    let radius = valid_radius(form.radius.unwrap_or(DEFAULT_RADIUS)).map_err(invalid)?;
    let max_results =
        valid_max_results(form.max_results.unwrap_or(DEFAULT_MAX_RESULTS)).map_err(invalid)?;
    let status = match form.status.as_deref() {
        None => CampaignStatus::Draft,
        Some(text) => text.parse().map_err(|_| {
            invalid(outreach_core::campaigns::CampaignError::UnknownStatus(
                text.to_string(),
            ))
        })?,
    };
    fn clean(text: &Option<String>) -> Option<&str> {
        text.as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
    }
    let mut window = state.ctx.settings.sending.default_window();
    if let Some(zone) = form.time_zone.as_deref().and_then(|zone| zone.parse().ok()) {
        window.time_zone = zone;
    }
    let campaign = NewCampaign {
        name: &name,
        status,
        business_type: clean(&form.business_type),
        geographic_area: clean(&form.geographic_area),
        radius,
        max_results,
        window: &window,
    };
    let id = state
        .ctx
        .db
        .campaigns()
        .insert_campaign(user.id, &campaign, state.ctx.now_ms())
        .await?;
    let row = owned(&state, id, user.id).await?;
    Ok((StatusCode::CREATED, Json(view(&state, &row).await?)).into_response())
}

/// A new draft campaign of this name with the default settings, for the spec's launch by name (A §7
/// `POST /api/campaigns/launch`).
pub(crate) async fn draft_named(state: &AppState, user_id: i64, name: &str) -> ApiResult<i64> {
    let name = valid_name(name).map_err(|error| ApiError::validation(error.to_string()))?;
    let campaign = NewCampaign {
        name: &name,
        status: CampaignStatus::Draft,
        business_type: None,
        geographic_area: None,
        radius: DEFAULT_RADIUS,
        max_results: DEFAULT_MAX_RESULTS,
        window: &state.ctx.settings.sending.default_window(),
    };
    Ok(state
        .ctx
        .db
        .campaigns()
        .insert_campaign(user_id, &campaign, state.ctx.now_ms())
        .await?)
}

/// Changes a campaign with one of the body variants of A §7; only the fields present change.
#[utoipa::path(put, path = "/api/campaigns/{id}", tag = "campaigns", params(("id" = i64, Path)), request_body = CampaignPatch,
    responses(
        (status = 200, body = CampaignView),
        (status = 404, description = "Campaign, or the search, template or sender it names, not found", body = ErrorBody),
        (status = 422, description = "A value out of range, or a file that has not been uploaded", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(patch): JsonBody<CampaignPatch>,
) -> ApiResult<Json<CampaignView>> {
    let mut row = owned(&state, id, user.id).await?;
    check_owned_choices(&state, &patch, user.id).await?;
    let progress = state.ctx.db.sending().campaign_progress(id).await?;
    patch
        .apply(&mut row, progress.waiting())
        .map_err(|error| ApiError::validation(error.to_string()))?;
    // Check the named files first, write the campaign, and only then remove the files it no longer names:
    // a refused or failed update leaves the uploads as they were.
    let uploaded = match &patch.ai_education_files {
        Some(keep) => {
            let uploaded = state.ctx.db.campaigns().list_education_files(id).await?;
            if let Some(missing) = keep
                .iter()
                .find(|name| !uploaded.iter().any(|file| &file.name == *name))
            {
                return Err(ApiError::validation(format!(
                    "{missing} has not been uploaded"
                )));
            }
            uploaded
        }
        None => Vec::new(),
    };
    if !state
        .ctx
        .db
        .campaigns()
        .update_campaign(&row, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    if let Some(keep) = &patch.ai_education_files {
        for file in uploaded.iter().filter(|file| !keep.contains(&file.name)) {
            state
                .ctx
                .db
                .campaigns()
                .delete_education_file(id, &file.name)
                .await?;
        }
    }
    if let Some(pool) = chosen_pool(&patch) {
        state.ctx.db.sending().set_campaign_pool(id, &pool).await?;
        pool_changed(&state.ctx, id).await?;
    }
    let row = owned(&state, id, user.id).await?;
    Ok(Json(view(&state, &row).await?))
}

/// The pool a builder request sets: its senders in order, or the one sender (none: the default sender).
fn chosen_pool(patch: &CampaignPatch) -> Option<Vec<i64>> {
    match (&patch.email_config_ids, patch.email_config_id) {
        (Some(ids), _) => Some(outreach_core::platform::limits::distinct(ids)),
        (None, Some(one)) => Some(one.into_iter().collect()),
        (None, None) => None,
    }
}

/// The search, template and sender a builder request names must be the user's own (another user's is 404).
async fn check_owned_choices(
    state: &AppState,
    patch: &CampaignPatch,
    user_id: i64,
) -> ApiResult<()> {
    let db = &state.ctx.db;
    if let Some(Some(search_id)) = patch.search_id {
        db.discovery()
            .find_search(search_id, user_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Search not found"))?;
    }
    if let Some(Some(template_id)) = patch.template_id {
        db.campaigns()
            .find_template(template_id, user_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Template not found"))?;
    }
    match (&patch.email_config_ids, patch.email_config_id) {
        (Some(ids), _) => {
            owned_pool(state, user_id, ids).await?;
        }
        (None, Some(Some(id))) => {
            owned_pool(state, user_id, &[id]).await?;
        }
        (None, _) => {}
    }
    Ok(())
}

/// Deletes a campaign; its sent emails stay in the analytics.
#[utoipa::path(delete, path = "/api/campaigns/{id}", tag = "campaigns", params(("id" = i64, Path)), responses(
    (status = 200, body = Done),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Done>> {
    if !state
        .ctx
        .db
        .campaigns()
        .delete_campaign(id, user.id)
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(Json(Done {
        success: true,
        message: "Campaign deleted".into(),
    }))
}

/// An uploaded education file: its name, size and the characters of text read from it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    pub name: String,
    pub size_bytes: i64,
    pub characters: usize,
}

/// Uploads one AI education file (PDF, text or Word, up to 10 MB); its text is extracted and kept with the
/// campaign. The campaign's `PUT aiEducationFiles` then names the files to keep.
#[utoipa::path(post, path = "/api/campaigns/{id}/education-files", tag = "campaigns", params(("id" = i64, Path)),
    request_body(content = FileUpload, content_type = "multipart/form-data"), responses(
        (status = 200, body = UploadedFile),
        (status = 404, description = "Campaign not found", body = ErrorBody),
        (status = 413, description = "The file is larger than 10MB", body = ErrorBody),
        (status = 422, description = "Not a supported file type, or no text could be read", body = ErrorBody)))]
pub async fn upload_education_file(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    mut multipart: Multipart,
) -> ApiResult<Json<UploadedFile>> {
    owned(&state, id, user.id).await?;
    let (name, bytes) = crate::upload::single_file(&mut multipart, None).await?;
    // Read off the request's thread, within bounds (a small PDF can unpack to gigabytes).
    let text = state
        .extractor
        .extract(user.id, &name, bytes.to_vec())
        .await
        .map_err(|error| ApiError::validation(error.to_string()))?;
    let file = EducationFile {
        name: name.clone(),
        size_bytes: bytes.len() as i64,
        extracted_text: text,
    };
    state
        .ctx
        .db
        .campaigns()
        .upsert_education_file(id, &file, state.ctx.now_ms())
        .await?;
    Ok(Json(UploadedFile {
        characters: file.extracted_text.chars().count(),
        size_bytes: file.size_bytes,
        name,
    }))
}
