//! `GET /api/instance`: facts about this instance the public pages show (operator, addresses, invite-only mode) and
//! the senders it can set up.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::AppState;

use axum::Router;
use axum::routing::get;

/// The endpoints of this module, outside the account gate (each checks what it needs itself).
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/instance", get(instance))
}

pub async fn instance(State(state): State<AppState>) -> Json<Value> {
    let settings = &state.ctx.settings;
    Json(json!({
        "operatorName": settings.instance.operator_name,
        "contactEmail": settings.contact_email(),
        "supportEmails": settings.support_emails(),
        "sendingDomain": settings.sending_domain(),
        "inviteOnly": settings.auth.invite_only,
        "publicUrl": settings.http.public_url(),
        "biographyUrl": settings.instance.biography_url,
        "coursesUrl": settings.instance.courses_url,
        // Which senders this instance can set up (the 'Currently Available Features' dialog).
        "gmailAvailable": settings.google.is_configured(),
        "basicAddressesAvailable": !settings.sendgrid.api_key.is_empty(),
    }))
}
