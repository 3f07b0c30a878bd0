//! Email templates and their follow-up sequences (A §7 Templates, B §7): owner-scoped CRUD, the HTML body
//! sanitised before it is stored, a personalised preview, and the atomic sequence sync.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::campaigns::personalise::{Recipient, render, render_html, sanitize_html};
use outreach_core::campaigns::templates::{
    FollowUpInput, FollowUpRow, FollowUpTiming, MAX_FOLLOW_UPS, TemplateInput, TemplateRow,
};
use outreach_core::campaigns::variants::{Variant, validate_variants};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{DONE, Done, ErrorBody, Success};
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update, delete))
        .routes(routes!(preview))
        .routes(routes!(preview_draft))
        .routes(routes!(create_follow_up))
        .routes(routes!(list_follow_ups, update_follow_up, delete_follow_up))
        .routes(routes!(sync_follow_ups))
        .routes(routes!(set_follow_up_timing))
}

const NOT_FOUND: &str = "Template not found";

/// Follow-ups with their steps' extra A/B variants.
async fn with_variants(
    state: &AppState,
    template_id: i64,
    mut rows: Vec<FollowUpRow>,
) -> ApiResult<Vec<FollowUpRow>> {
    let variants = state
        .ctx
        .db
        .campaigns()
        .template_variants(template_id)
        .await?;
    for row in &mut rows {
        row.variants = variants
            .iter()
            .filter(|(step, ..)| *step == row.sequence_number)
            .map(|(_, _, subject, body)| Variant {
                subject: subject.clone(),
                body: body.clone(),
            })
            .collect();
    }
    Ok(rows)
}

/// A follow-up's variants, validated (none when the request leaves them as they are).
fn follow_up_variants(input: &FollowUpInput) -> ApiResult<Option<Vec<Variant>>> {
    input
        .variants
        .as_deref()
        .map(validate_variants)
        .transpose()
        .map_err(|error| crate::variants::invalid_variant(&error))
}
const FOLLOW_UP_NOT_FOUND: &str = "Follow-up not found";

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<TemplateRow> {
    state
        .ctx
        .db
        .campaigns()
        .find_template(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn owned_follow_up(state: &AppState, id: i64, user_id: i64) -> ApiResult<FollowUpRow> {
    state
        .ctx
        .db
        .campaigns()
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

/// The user's templates, newest first.
#[utoipa::path(get, path = "/api/email-templates", tag = "templates", responses((status = 200, body = Vec<TemplateRow>)))]
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<TemplateRow>>> {
    let rows = state.ctx.db.campaigns().list_templates(user.id).await?;
    Ok(Json(rows))
}

/// A new template (name, subject, body, objective, tone, emailSignature, and A/B `variants` B onwards); the
/// body's HTML is sanitised. Nothing is saved when a field or a variant is refused.
#[utoipa::path(post, path = "/api/email-templates", tag = "templates", request_body = TemplateInput, responses(
    (status = 201, body = TemplateRow),
    (status = 400, description = "A variant is refused: more than 5, an empty subject or body, an unknown variable (the field is named)", body = ErrorBody),
    (status = 422, description = "A required field is missing or too long", body = ErrorBody)))]
pub async fn create(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(input): JsonBody<TemplateInput>,
) -> ApiResult<Response> {
    let content = input.validate().map_err(invalid)?;
    let variants = validate_variants(&input.variants.unwrap_or_default())
        .map_err(|error| crate::variants::invalid_variant(&error))?;
    let db = &state.ctx.db;
    let id = db
        .campaigns()
        .insert_template(user.id, &content, state.ctx.now_ms())
        .await?;
    if !variants.is_empty() {
        db.campaigns().replace_variants(id, 0, &variants).await?;
    }
    let row = owned(&state, id, user.id).await?;
    Ok((StatusCode::CREATED, Json(row)).into_response())
}

/// Changes a template's name, subject, body, and (from the second document's editor) objective and tone.
#[utoipa::path(put, path = "/api/email-templates/{id}", tag = "templates", params(("id" = i64, Path)), request_body = TemplateInput,
    responses(
        (status = 200, body = TemplateRow),
        (status = 400, description = "A variant is refused (the field is named); nothing is saved", body = ErrorBody),
        (status = 404, description = "Template not found", body = ErrorBody),
        (status = 422, description = "A required field is missing or too long", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(input): JsonBody<TemplateInput>,
) -> ApiResult<Json<TemplateRow>> {
    let existing = owned(&state, id, user.id).await?;
    let merged = TemplateInput {
        objective: input.objective.or(Some(existing.objective)),
        tone: input.tone.or(Some(existing.tone)),
        email_signature: input.email_signature.or(existing.email_signature),
        ..input
    };
    let content = merged.validate().map_err(invalid)?;
    // Absent, the variants stay as they are; a list (empty too) replaces them.
    let variants = merged
        .variants
        .as_deref()
        .map(validate_variants)
        .transpose()
        .map_err(|error| crate::variants::invalid_variant(&error))?;
    state
        .ctx
        .db
        .campaigns()
        .update_template(id, user.id, &content, state.ctx.now_ms())
        .await?;
    if let Some(variants) = variants {
        state
            .ctx
            .db
            .campaigns()
            .replace_variants(id, 0, &variants)
            .await?;
    }
    Ok(Json(owned(&state, id, user.id).await?))
}

/// Deletes a template and its follow-ups.
#[utoipa::path(delete, path = "/api/email-templates/{id}", tag = "templates", params(("id" = i64, Path)), responses(
    (status = 200, body = Done),
    (status = 404, description = "Template not found", body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Done>> {
    if !state
        .ctx
        .db
        .campaigns()
        .delete_template(id, user.id)
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(Json(Done {
        success: true,
        message: "Template deleted".into(),
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviewBusiness {
    business_name: Option<String>,
    city: Option<String>,
    website: Option<String>,
    category: Option<String>,
    icebreaker: Option<String>,
}

/// A template rendered for one business.
#[derive(Debug, Serialize, ToSchema)]
pub struct Preview {
    pub subject: String,
    /// Safe HTML: the business's data as text, never a script or a script link.
    pub body: String,
    /// The variables that had no value for this business.
    pub missing: Vec<String>,
}

/// The template rendered for one business, with the variables that had no value.
#[utoipa::path(post, path = "/api/email-templates/{id}/preview", tag = "templates", params(("id" = i64, Path)),
    request_body = PreviewBusiness, responses(
        (status = 200, body = Preview),
        (status = 404, description = "Template not found", body = ErrorBody)))]
pub async fn preview(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(business): JsonBody<PreviewBusiness>,
) -> ApiResult<Json<Preview>> {
    let template = owned(&state, id, user.id).await?;
    let recipient = Recipient {
        business_name: business.business_name,
        city: business.city,
        website: business.website,
        category: business.category,
        icebreaker: business.icebreaker,
    };
    Ok(Json(personalised(
        &template.subject,
        &template.body,
        &recipient,
    )))
}

/// An unsaved draft (the composer's) and one of the user's businesses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DraftPreview {
    subject: String,
    body: String,
    business_id: i64,
}

/// A draft rendered for one of the user's businesses, as that business would receive it; the body is sanitised
/// as a saved template's would be.
#[utoipa::path(post, path = "/api/email-templates/preview", tag = "templates", request_body = DraftPreview,
    responses(
        (status = 200, body = Preview),
        (status = 404, description = "Business not found", body = ErrorBody)))]
pub async fn preview_draft(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(draft): JsonBody<DraftPreview>,
) -> ApiResult<Json<Preview>> {
    let mut recipients = state
        .ctx
        .db
        .discovery()
        .recipients(
            &[draft.business_id],
            user.id,
            outreach_core::writing::icebreaker::language_of(&draft.body),
            outreach_core::platform::clock::date_of(state.ctx.now_ms()),
        )
        .await?;
    let recipient = recipients
        .remove(&draft.business_id)
        .ok_or_else(|| ApiError::not_found("Business not found"))?;
    Ok(Json(personalised(
        &draft.subject,
        &sanitize_html(&draft.body),
        &recipient,
    )))
}

/// Subject and body rendered for a recipient, with the variables that had no value. Spintax is chosen by the
/// business's name, as when sending.
fn personalised(subject: &str, body: &str, recipient: &Recipient) -> Preview {
    let seed = recipient.business_name.clone().unwrap_or_default();
    let subject = render(subject, recipient, &seed);
    // The same HTML a sent email gets: the preview shows data as text and never a script link.
    let body = render_html(body, recipient, &seed);
    let mut missing = subject.missing.clone();
    missing.extend(body.missing.iter().cloned());
    missing.dedup();
    Preview {
        subject: subject.text,
        body: body.text,
        missing,
    }
}

/// A template's follow-ups in order (`id` is the template's).
#[utoipa::path(get, path = "/api/follow-up-templates/{id}", tag = "templates", params(("id" = i64, Path)), responses(
    (status = 200, body = Vec<FollowUpRow>),
    (status = 404, description = "Template not found", body = ErrorBody)))]
pub async fn list_follow_ups(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(template_id): Path<i64>,
) -> ApiResult<Json<Vec<FollowUpRow>>> {
    owned(&state, template_id, user.id).await?;
    let rows = state
        .ctx
        .db
        .campaigns()
        .list_follow_ups(template_id, user.id)
        .await?;
    Ok(Json(with_variants(&state, template_id, rows).await?))
}

/// One more follow-up of a template (at most four).
#[utoipa::path(post, path = "/api/follow-up-templates", tag = "templates", request_body = FollowUpInput, responses(
    (status = 201, body = FollowUpRow),
    (status = 404, description = "Template not found", body = ErrorBody),
    (status = 409, description = "Another follow-up holds that position", body = ErrorBody),
    (status = 422, description = "A template has at most 4 follow-ups, or a field is invalid", body = ErrorBody)))]
pub async fn create_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(input): JsonBody<FollowUpInput>,
) -> ApiResult<Response> {
    let template_id = input
        .main_template_id
        .ok_or_else(|| ApiError::validation("mainTemplateId is required"))?;
    owned(&state, template_id, user.id).await?;
    let existing = state
        .ctx
        .db
        .campaigns()
        .list_follow_ups(template_id, user.id)
        .await?;
    if existing.len() >= MAX_FOLLOW_UPS {
        return Err(ApiError::validation("A template has at most 4 follow-ups"));
    }
    let content = input.validate(existing.len() as i32 + 1).map_err(invalid)?;
    let variants = follow_up_variants(&input)?;
    let id = state
        .ctx
        .db
        .campaigns()
        .insert_follow_up(template_id, user.id, &content, state.ctx.now_ms())
        .await?
        .ok_or_else(|| position_taken(content.sequence_number))?;
    if let Some(variants) = variants {
        state
            .ctx
            .db
            .campaigns()
            .replace_variants(template_id, content.sequence_number, &variants)
            .await?;
    }
    state
        .ctx
        .db
        .followups()
        .reschedule_follow_ups(template_id)
        .await?;
    let row = owned_follow_up(&state, id, user.id).await?;
    let row = with_variants(&state, template_id, vec![row])
        .await?
        .remove(0);
    Ok((StatusCode::CREATED, Json(row)).into_response())
}

/// Changes one follow-up (`id` is the follow-up's).
#[utoipa::path(put, path = "/api/follow-up-templates/{id}", tag = "templates", params(("id" = i64, Path)),
    request_body = FollowUpInput, responses(
        (status = 200, body = FollowUpRow),
        (status = 404, description = "Follow-up not found", body = ErrorBody),
        (status = 409, description = "Another follow-up holds that position", body = ErrorBody)))]
pub async fn update_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(input): JsonBody<FollowUpInput>,
) -> ApiResult<Json<FollowUpRow>> {
    let existing = owned_follow_up(&state, id, user.id).await?;
    let content = input.validate(existing.sequence_number).map_err(invalid)?;
    let variants = follow_up_variants(&input)?;
    state
        .ctx
        .db
        .campaigns()
        .update_follow_up(id, user.id, &content, state.ctx.now_ms())
        .await?
        .ok_or_else(|| position_taken(content.sequence_number))?;
    if let Some(variants) = variants {
        state
            .ctx
            .db
            .campaigns()
            .replace_variants(
                existing.main_template_id,
                content.sequence_number,
                &variants,
            )
            .await?;
    }
    state
        .ctx
        .db
        .followups()
        .reschedule_follow_ups(existing.main_template_id)
        .await?;
    let row = owned_follow_up(&state, id, user.id).await?;
    Ok(Json(
        with_variants(&state, existing.main_template_id, vec![row])
            .await?
            .remove(0),
    ))
}

/// Deletes one follow-up (`id` is the follow-up's).
#[utoipa::path(delete, path = "/api/follow-up-templates/{id}", tag = "templates", params(("id" = i64, Path)), responses(
    (status = 200, body = Success),
    (status = 404, description = "Follow-up not found", body = ErrorBody)))]
pub async fn delete_follow_up(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Success>> {
    let existing = owned_follow_up(&state, id, user.id).await?;
    if !state
        .ctx
        .db
        .campaigns()
        .delete_follow_up(id, user.id)
        .await?
    {
        return Err(ApiError::not_found(FOLLOW_UP_NOT_FOUND));
    }
    state
        .ctx
        .db
        .followups()
        .reschedule_follow_ups(existing.main_template_id)
        .await?;
    Ok(Json(DONE))
}

/// A template's whole sequence (up to 4 follow-ups) in order, saved in one transaction: updated by position, extras
/// created, surplus deleted. Nothing changes if any is invalid.
#[utoipa::path(put, path = "/api/follow-up-templates/sequence/{template_id}", tag = "templates",
    params(("template_id" = i64, Path)), request_body = Vec<FollowUpInput>, responses(
        (status = 200, body = Vec<FollowUpRow>),
        (status = 404, description = "Template not found", body = ErrorBody),
        (status = 422, description = "A template has at most 4 follow-ups, or a follow-up is invalid", body = ErrorBody)))]
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
    let variants = inputs
        .iter()
        .map(follow_up_variants)
        .collect::<ApiResult<Vec<_>>>()?;
    if !state
        .ctx
        .db
        .campaigns()
        .sync_follow_ups(template_id, user.id, &contents, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    state
        .ctx
        .db
        .followups()
        .reschedule_follow_ups(template_id)
        .await?;
    for (index, variants) in variants.iter().enumerate() {
        if let Some(variants) = variants {
            state
                .ctx
                .db
                .campaigns()
                .replace_variants(template_id, index as i32 + 1, variants)
                .await?;
        }
    }
    let rows = state
        .ctx
        .db
        .campaigns()
        .list_follow_ups(template_id, user.id)
        .await?;
    Ok(Json(with_variants(&state, template_id, rows).await?))
}

/// When a template's follow-ups are due.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FollowUpTimingRequest {
    follow_up_timing: FollowUpTiming,
}

/// Sets when a template's follow-ups are due: after an open (the default) or after sending, when there is no reply.
#[utoipa::path(put, path = "/api/email-templates/{id}/follow-up-timing", tag = "templates", params(("id" = i64, Path)),
    request_body = FollowUpTimingRequest, responses(
        (status = 200, body = TemplateRow),
        (status = 404, description = "Template not found", body = ErrorBody)))]
pub async fn set_follow_up_timing(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<FollowUpTimingRequest>,
) -> ApiResult<Json<TemplateRow>> {
    if !state
        .ctx
        .db
        .campaigns()
        .set_follow_up_timing(id, user.id, request.follow_up_timing, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    state.ctx.db.followups().reschedule_follow_ups(id).await?;
    Ok(Json(owned(&state, id, user.id).await?))
}
