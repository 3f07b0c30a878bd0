//! Contacts (B §2.7, §7): `GET /api/contacts/all` (the user's contacts with their badges), `GET /api/contacts/stats`,
//! `GET /api/contacts/history?email=` (every message, event and reply, and the notes) and the notes:
//! `POST /api/contacts/notes {email, body}`, `PUT /api/contacts/notes/{id} {body}`, `DELETE /api/contacts/notes/{id}`.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use outreach_core::accounts::is_valid_email;
use outreach_core::tracking::contacts::valid_note;
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
        .route("/api/contacts/all", get(all))
        .route("/api/contacts/stats", get(stats))
        .route("/api/contacts/history", get(history))
        .route("/api/contacts/notes", post(add_note))
        .route(
            "/api/contacts/notes/{id}",
            put(update_note).delete(delete_note),
        )
}

const CONTACT_NOT_FOUND: &str = "Contact not found";
const NOTE_NOT_FOUND: &str = "Note not found";

/// `GET /api/contacts/all`.
pub async fn all(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let contacts = state.ctx.db.contacts(user.id).await?;
    Ok(Json(json!(contacts)))
}

/// `GET /api/contacts/stats`.
pub async fn stats(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let stats = state.ctx.db.contact_stats(user.id).await?;
    Ok(Json(json!(stats)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ContactQuery {
    email: String,
}

/// `GET /api/contacts/history?email=`.
pub async fn history(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(query): Query<ContactQuery>,
) -> ApiResult<Json<Value>> {
    if !is_valid_email(query.email.trim()) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let history = state
        .ctx
        .db
        .contact_history(user.id, &query.email)
        .await?
        .ok_or_else(|| ApiError::not_found(CONTACT_NOT_FOUND))?;
    Ok(Json(json!(history)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewNote {
    email: String,
    body: String,
}

/// `POST /api/contacts/notes`.
pub async fn add_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(note): JsonBody<NewNote>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let body = valid_note(&note.body).map_err(|error| ApiError::validation(error.to_string()))?;
    let saved = state
        .ctx
        .db
        .add_note(user.id, &note.email, &body, state.ctx.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(CONTACT_NOT_FOUND))?;
    Ok((StatusCode::CREATED, Json(json!(saved))))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoteEdit {
    body: String,
}

/// `PUT /api/contacts/notes/{id}`.
pub async fn update_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(edit): JsonBody<NoteEdit>,
) -> ApiResult<Json<Value>> {
    let body = valid_note(&edit.body).map_err(|error| ApiError::validation(error.to_string()))?;
    let saved = state
        .ctx
        .db
        .update_note(id, user.id, &body, state.ctx.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(NOTE_NOT_FOUND))?;
    Ok(Json(json!(saved)))
}

/// `DELETE /api/contacts/notes/{id}`.
pub async fn delete_note(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    if !state.ctx.db.delete_note(id, user.id).await? {
        return Err(ApiError::not_found(NOTE_NOT_FOUND));
    }
    Ok(Json(json!({ "success": true })))
}
