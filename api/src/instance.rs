//! `GET /api/instance`: facts about this instance the public pages show (operator, addresses, invite-only mode) and
//! the senders it can set up.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

/// The endpoints of this module, public.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(instance))
}

/// What the public pages and the email settings need to know about this instance.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstanceView {
    pub operator_name: String,
    pub contact_email: String,
    pub support_emails: Vec<String>,
    pub sending_domain: String,
    pub invite_only: bool,
    pub public_url: String,
    pub biography_url: String,
    pub courses_url: String,
    /// Whether Gmail senders can be set up (a Google OAuth client is configured).
    pub gmail_available: bool,
    /// Whether basic addresses on the sending domain can be created (the operator's SendGrid key is set).
    pub basic_addresses_available: bool,
    /// This build's version (B §2.4: the analytics debug panel shows it).
    pub version: String,
}

/// The instance's public facts and the senders it can set up.
#[utoipa::path(get, path = "/api/instance", tag = "instance", responses((status = 200, body = InstanceView)))]
pub async fn instance(State(state): State<AppState>) -> Json<InstanceView> {
    let settings = &state.ctx.settings;
    Json(InstanceView {
        operator_name: settings.instance.operator_name.clone(),
        contact_email: settings.contact_email(),
        support_emails: settings.support_emails(),
        sending_domain: settings.sending_domain(),
        invite_only: settings.auth.invite_only,
        public_url: settings.http.public_url(),
        biography_url: settings.instance.biography_url.clone(),
        courses_url: settings.instance.courses_url.clone(),
        gmail_available: settings.google.is_configured(),
        basic_addresses_available: !settings.sendgrid.api_key.is_empty(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    })
}
