//! Contacts (B §2.7, §7): `GET /api/contacts/all` (the user's contacts with their badges), `GET /api/contacts/stats`,
//! `GET /api/contacts/history?email=` (every message, event and reply, and the notes) and the notes:
//! `POST /api/contacts/notes {email, body}`, `PUT /api/contacts/notes/{id} {body}`, `DELETE /api/contacts/notes/{id}`.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use outreach_core::accounts::is_valid_email;
use outreach_core::tracking::contacts::{Contact, ContactHistory, ContactStats, Note, valid_note};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{DONE, ErrorBody, Success};
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(all))
        .routes(routes!(stats))
        .routes(routes!(history))
        .routes(routes!(add_note))
        .routes(routes!(update_note, delete_note))
}

const CONTACT_NOT_FOUND: &str = "Contact not found";
const NOTE_NOT_FOUND: &str = "Note not found";

/// Everyone the user has emailed, with their latest engagement badge.
#[utoipa::path(get, path = "/api/contacts/all", tag = "contacts", responses((status = 200, body = Vec<Contact>)))]
pub async fn all(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<Contact>>> {
    let contacts = state.ctx.db.tracking().contacts(user.id).await?;
    Ok(Json(contacts))
}

/// The six contact counts of the Contacts tab.
#[utoipa::path(get, path = "/api/contacts/stats", tag = "contacts", responses((status = 200, body = ContactStats)))]
pub async fn stats(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<ContactStats>> {
    let stats = state.ctx.db.tracking().contact_stats(user.id).await?;
    Ok(Json(stats))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ContactQuery {
    email: String,
}

/// A contact's every message, event and reply, and the user's notes on them.
#[utoipa::path(get, path = "/api/contacts/history", tag = "contacts", params(ContactQuery), responses(
    (status = 200, body = ContactHistory),
    (status = 404, description = "Contact not found", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address", body = ErrorBody)))]
pub async fn history(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(query): Query<ContactQuery>,
) -> ApiResult<Json<ContactHistory>> {
    if !is_valid_email(query.email.trim()) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let history = state
        .ctx
        .db
        .tracking()
        .contact_history(user.id, &query.email)
        .await?
        .ok_or_else(|| ApiError::not_found(CONTACT_NOT_FOUND))?;
    Ok(Json(history))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewNote {
    email: String,
    body: String,
}

/// Adds a note to a contact.
#[utoipa::path(post, path = "/api/contacts/notes", tag = "contacts", request_body = NewNote, responses(
    (status = 201, body = Note),
    (status = 404, description = "Contact not found", body = ErrorBody)))]
pub async fn add_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(note): JsonBody<NewNote>,
) -> ApiResult<(StatusCode, Json<Note>)> {
    let body = valid_note(&note.body).map_err(|error| ApiError::validation(error.to_string()))?;
    let saved = state
        .ctx
        .db
        .tracking()
        .add_note(user.id, &note.email, &body, state.ctx.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(CONTACT_NOT_FOUND))?;
    Ok((StatusCode::CREATED, Json(saved)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoteEdit {
    body: String,
}

/// Changes a note's text.
#[utoipa::path(put, path = "/api/contacts/notes/{id}", tag = "contacts", params(("id" = i64, Path)), request_body = NoteEdit,
    responses((status = 200, body = Note), (status = 404, description = "Note not found", body = ErrorBody)))]
pub async fn update_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(edit): JsonBody<NoteEdit>,
) -> ApiResult<Json<Note>> {
    let body = valid_note(&edit.body).map_err(|error| ApiError::validation(error.to_string()))?;
    let saved = state
        .ctx
        .db
        .tracking()
        .update_note(id, user.id, &body, state.ctx.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(NOTE_NOT_FOUND))?;
    Ok(Json(saved))
}

/// Deletes a note.
#[utoipa::path(delete, path = "/api/contacts/notes/{id}", tag = "contacts", params(("id" = i64, Path)),
    responses((status = 200, body = Success), (status = 404, description = "Note not found", body = ErrorBody)))]
pub async fn delete_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Success>> {
    if !state.ctx.db.tracking().delete_note(id, user.id).await? {
        return Err(ApiError::not_found(NOTE_NOT_FOUND));
    }
    Ok(Json(DONE))
}
