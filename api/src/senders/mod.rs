//! Senders (A §4 Email tiers, §7 Email setup): Gmail through Google's consent, SMTP servers, SendGrid (branded keys
//! and basic addresses), the local outbox, the sender profile, and the user's list of senders.

pub mod configs;
pub mod gmail;
pub mod outbox;
pub mod profile;
pub mod request;
pub mod sendgrid;
pub mod setup;

use axum::Router;
use axum::routing::{delete, get, post, put};

use crate::AppState;

/// The senders' endpoints behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/user/email-config",
            get(configs::config_status).post(setup::save_config),
        )
        .route("/api/user/email-configs", get(configs::list_configs))
        .route(
            "/api/user/email-configs/{id}",
            delete(configs::delete_config).put(configs::update_config),
        )
        .route(
            "/api/user/email-configs/{id}/set-default",
            put(configs::set_default),
        )
        .route(
            "/api/user/verify-email-config",
            post(configs::verify_config),
        )
        .route("/api/auth/gmail/additional", post(gmail::additional))
        .route(
            "/api/user/email-configs/{id}/gmail-read",
            post(gmail::read_access),
        )
        .route("/api/user/check-username", post(sendgrid::check_username))
        .route(
            "/api/user/suggest-username",
            get(sendgrid::suggest_username),
        )
        .route("/api/sendgrid/send-test", post(sendgrid::send_basic_test))
        .route(
            "/api/sendgrid/create-basic-address",
            post(sendgrid::create_basic_address),
        )
        .route("/api/outbox", get(outbox::outbox))
        .route("/api/outbox/{id}/reply", post(outbox::outbox_reply))
}

/// The senders' endpoints open to any signed-in user (the profile) or to Google (the consent callback).
pub fn open_routes() -> Router<AppState> {
    Router::new()
        .route(gmail::CALLBACK_PATH, get(gmail::callback))
        .route(
            "/api/user/profile",
            get(profile::profile).put(profile::save_profile),
        )
}
