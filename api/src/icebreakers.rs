//! A business's icebreaker (issue 82): `GET` the line with its facts (404 when the website gave none), `POST` to
//! read the website again and write a new line (in a language, else the site's), `PUT` the user's own line (an
//! empty one drops it). The reading is the enrichment job; the API waits for it a bounded time.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::discovery::icebreakers::IcebreakerView;
use outreach_core::writing::icebreaker::{LANGUAGES, language_or_default, validate_edit};
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
    OpenApiRouter::new().routes(routes!(show, write, edit))
}

fn nothing() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_icebreaker",
        "The website gave no facts for a first line.",
    )
}

async fn owned_business(
    state: &AppState,
    id: i64,
    user_id: i64,
) -> ApiResult<outreach_core::discovery::businesses::BusinessRow> {
    state
        .ctx
        .db
        .discovery()
        .find_business(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Business not found"))
}

/// The business's first line and the facts it states, each with its page and sentence.
#[utoipa::path(get, path = "/api/businesses/{id}/icebreaker", tag = "businesses", params(("id" = i64, Path)),
    responses(
        (status = 200, body = IcebreakerView),
        (status = 404, description = "Business not found, or its website gave no facts", body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<IcebreakerView>> {
    owned_business(&state, id, user.id).await?;
    let row = state.ctx.db.discovery().icebreaker(id, user.id).await?;
    Ok(Json(row.ok_or_else(nothing)?.view()))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WriteIcebreaker {
    /// en, de, fr, es or fi (the campaign's); none: the website's.
    #[serde(default)]
    language: Option<String>,
}

/// Reads the website again and writes a new line from its facts (replacing the user's own).
#[utoipa::path(post, path = "/api/businesses/{id}/icebreaker", tag = "businesses", params(("id" = i64, Path)),
    request_body = WriteIcebreaker, responses(
        (status = 200, body = IcebreakerView),
        (status = 404, description = "Business not found, or its website gave no facts", body = ErrorBody),
        (status = 422, description = "No website, a language not offered, or the website could not be read", body = ErrorBody),
        (status = 504, description = "The website is still being read. Try again in a moment.", body = ErrorBody)))]
pub async fn write(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<WriteIcebreaker>,
) -> ApiResult<Json<IcebreakerView>> {
    let business = owned_business(&state, id, user.id).await?;
    if business.website.is_none() {
        return Err(ApiError::validation("This business has no website to read"));
    }
    if let Some(language) = &request.language
        && !LANGUAGES.contains(&language.as_str())
    {
        return Err(ApiError::validation(format!(
            "Lines are written in {}",
            LANGUAGES.join(", ")
        )));
    }
    let key = format!("icebreaker:{id}:{}", state.ctx.now_ms());
    state
        .ctx
        .request_icebreaker(id, request.language, &key)
        .await?;
    crate::businesses::website_read(&state, &key).await?;
    let row = owned_business(&state, id, user.id).await?;
    if let Some(error) = row.website_error {
        return Err(ApiError::validation(format!(
            "The website could not be read: {error}"
        )));
    }
    let line = state.ctx.db.discovery().icebreaker(id, user.id).await?;
    Ok(Json(line.ok_or_else(nothing)?.view()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EditIcebreaker {
    /// The line (at most 300 characters; `{{businessName}}`, `{{city}}`, `{{website}}`, `{{category}}` allowed);
    /// empty drops it.
    text: String,
    #[serde(default)]
    language: Option<String>,
}

/// Saves the user's own line for this prospect (empty: dropped, the template's fallback is sent).
#[utoipa::path(put, path = "/api/businesses/{id}/icebreaker", tag = "businesses", params(("id" = i64, Path)),
    request_body = EditIcebreaker, responses(
        (status = 200, body = IcebreakerView),
        (status = 400, description = "Longer than 300 characters, or an unknown variable", body = ErrorBody),
        (status = 404, description = "Business not found", body = ErrorBody)))]
pub async fn edit(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<EditIcebreaker>,
) -> ApiResult<Json<IcebreakerView>> {
    owned_business(&state, id, user.id).await?;
    let text = validate_edit(&request.text)
        .map_err(|reason| ApiError::new(StatusCode::BAD_REQUEST, "invalid_icebreaker", reason))?;
    let store = state.ctx.db.discovery();
    let current = store.icebreaker(id, user.id).await?;
    let language = request
        .language
        .as_deref()
        .or(current.as_ref().map(|row| row.language.as_str()));
    store
        .edit_icebreaker(id, &text, language_or_default(language), state.ctx.now_ms())
        .await?;
    let row = store.icebreaker(id, user.id).await?;
    Ok(Json(row.ok_or_else(nothing)?.view()))
}
