//! Email templates and their follow-up sequences (A §7 Templates, B §7): owner-scoped CRUD, the HTML body
//! sanitised before it is stored, a personalised preview, and the atomic sequence sync.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::campaigns::personalise::{Recipient, render, render_html};
use outreach_core::campaigns::templates::{
    FollowUpInput, FollowUpRow, MAX_FOLLOW_UPS, TemplateInput, TemplateRow,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::SignedIn;

use axum::Router;
use axum::routing::{get, post, put};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/email-templates", get(list).post(create))
        .route("/api/email-templates/{id}", put(update).delete(delete))
        .route("/api/email-templates/{id}/preview", post(preview))
        .route("/api/follow-up-templates", post(create_follow_up))
        .route(
            "/api/follow-up-templates/{id}",
            get(list_follow_ups)
                .put(update_follow_up)
                .delete(delete_follow_up),
        )
        .route(
            "/api/follow-up-templates/sequence/{template_id}",
            put(sync_follow_ups),
        )
}

const NOT_FOUND: &str = "Template not found";
const FOLLOW_UP_NOT_FOUND: &str = "Follow-up not found";

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<TemplateRow> {
    state
        .ctx
        .db
        .find_template(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn owned_follow_up(state: &AppState, id: i64, user_id: i64) -> ApiResult<FollowUpRow> {
    state
        .ctx
        .db
        .find_follow_up(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(FOLLOW_UP_NOT_FOUND))
}

fn invalid(error: impl std::fmt::Display) -> ApiError {
    ApiError::validation(error.to_string())
}

/// Another follow-up holds that position (two requests raced, or the client numbered it so).
fn position_taken(position: i32) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "position_taken",
        format!(
            "This template already has follow-up #{position}. Reload the sequence and save it again."
        ),
    )
}

/// `GET /api/email-templates`.
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<TemplateRow>>> {
    let rows = state.ctx.db.list_templates(user.id).await?;
    Ok(Json(rows))
}

/// `POST /api/email-templates`: name, subject, body, objective, tone, emailSignature; answers with the template.
pub async fn create(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(input): JsonBody<TemplateInput>,
) -> ApiResult<Response> {
    let content = input.validate().map_err(invalid)?;
    let id = state
        .ctx
        .db
        .insert_template(user.id, &content, state.ctx.now_ms())
        .await?;
    let row = owned(&state, id, user.id).await?;
    Ok((StatusCode::CREATED, Json(row)).into_response())
}

/// `PUT /api/email-templates/{id}`: name, subject, body, and (from the second document's editor) objective, tone.
pub async fn update(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(input): JsonBody<TemplateInput>,
) -> ApiResult<Json<Value>> {
    let existing = owned(&state, id, user.id).await?;
    let merged = TemplateInput {
        objective: input.objective.or(Some(existing.objective)),
        tone: input.tone.or(Some(existing.tone)),
        email_signature: input.email_signature.or(existing.email_signature),
        ..input
    };
    let content = merged.validate().map_err(invalid)?;
    state
        .ctx
        .db
        .update_template(id, user.id, &content, state.ctx.now_ms())
        .await?;
    Ok(Json(
        serde_json::to_value(owned(&state, id, user.id).await?).unwrap_or_default(),
    ))
}

/// `DELETE /api/email-templates/{id}` (its follow-ups go with it).
pub async fn delete(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    if !state.ctx.db.delete_template(id, user.id).await? {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(Json(
        json!({ "success": true, "message": "Template deleted" }),
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewBusiness {
    business_name: Option<String>,
    city: Option<String>,
    website: Option<String>,
    category: Option<String>,
}

/// `POST /api/email-templates/{id}/preview`: the template rendered for one business, with the variables that
/// had no value.
pub async fn preview(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(business): JsonBody<PreviewBusiness>,
) -> ApiResult<Json<Value>> {
    let template = owned(&state, id, user.id).await?;
    let recipient = Recipient {
        business_name: business.business_name,
        city: business.city,
        website: business.website,
        category: business.category,
    };
    let seed = recipient.business_name.clone().unwrap_or_default();
    let subject = render(&template.subject, &recipient, &seed);
    // The same HTML a sent email gets: the preview shows data as text and never a script link.
    let body = render_html(&template.body, &recipient, &seed);
    let mut missing = subject.missing.clone();
    missing.extend(body.missing.iter().cloned());
    missing.dedup();
    Ok(Json(
        json!({ "subject": subject.text, "body": body.text, "missing": missing }),
    ))
}

/// `GET /api/follow-up-templates/{templateId}`: the template's follow-ups in order.
pub async fn list_follow_ups(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(template_id): Path<i64>,
) -> ApiResult<Json<Vec<FollowUpRow>>> {
    owned(&state, template_id, user.id).await?;
    let rows = state.ctx.db.list_follow_ups(template_id, user.id).await?;
    Ok(Json(rows))
}

/// `POST /api/follow-up-templates`: one more follow-up of a template (at most four).
pub async fn create_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(input): JsonBody<FollowUpInput>,
) -> ApiResult<Response> {
    let template_id = input
        .main_template_id
        .ok_or_else(|| ApiError::validation("mainTemplateId is required"))?;
    owned(&state, template_id, user.id).await?;
    let existing = state.ctx.db.list_follow_ups(template_id, user.id).await?;
    if existing.len() >= MAX_FOLLOW_UPS {
        return Err(ApiError::validation("A template has at most 4 follow-ups"));
    }
    let content = input.validate(existing.len() as i32 + 1).map_err(invalid)?;
    let id = state
        .ctx
        .db
        .insert_follow_up(template_id, user.id, &content, state.ctx.now_ms())
        .await?
        .ok_or_else(|| position_taken(content.sequence_number))?;
    let row = owned_follow_up(&state, id, user.id).await?;
    Ok((StatusCode::CREATED, Json(row)).into_response())
}

/// `PUT /api/follow-up-templates/{id}`.
pub async fn update_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(input): JsonBody<FollowUpInput>,
) -> ApiResult<Json<Value>> {
    let existing = owned_follow_up(&state, id, user.id).await?;
    let content = input.validate(existing.sequence_number).map_err(invalid)?;
    state
        .ctx
        .db
        .update_follow_up(id, user.id, &content, state.ctx.now_ms())
        .await?
        .ok_or_else(|| position_taken(content.sequence_number))?;
    let row = owned_follow_up(&state, id, user.id).await?;
    Ok(Json(serde_json::to_value(row).unwrap_or_default()))
}

/// `DELETE /api/follow-up-templates/{id}`.
pub async fn delete_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    if !state.ctx.db.delete_follow_up(id, user.id).await? {
        return Err(ApiError::not_found(FOLLOW_UP_NOT_FOUND));
    }
    Ok(Json(json!({ "success": true })))
}

/// `PUT /api/follow-up-templates/sequence/{templateId}`: the whole sequence (1 to 4 follow-ups) in order, saved
/// in one transaction: updated by position, extras created, surplus deleted. Nothing changes if any is invalid.
pub async fn sync_follow_ups(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(template_id): Path<i64>,
    JsonBody(inputs): JsonBody<Vec<FollowUpInput>>,
) -> ApiResult<Json<Vec<FollowUpRow>>> {
    owned(&state, template_id, user.id).await?;
    if inputs.len() > MAX_FOLLOW_UPS {
        return Err(ApiError::validation("A template has at most 4 follow-ups"));
    }
    let contents = inputs
        .iter()
        .enumerate()
        .map(|(index, input)| {
            let position = index as i32 + 1;
            // Position decides the number and, unless given, the name.
            FollowUpInput {
                sequence_number: Some(position),
                ..input.clone()
            }
            .validate(position)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    if !state
        .ctx
        .db
        .sync_follow_ups(template_id, user.id, &contents, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let rows = state.ctx.db.list_follow_ups(template_id, user.id).await?;
    Ok(Json(rows))
}
