//! Senders (A §4 Email tiers, §7 Email setup): Gmail through Google's consent, SMTP servers, SendGrid (branded keys
//! and basic addresses), the local outbox, the sender profile, and the user's list of senders.

pub mod configs;
pub mod gmail;
pub mod outbox;
pub mod profile;
pub mod request;
pub mod sendgrid;
pub mod setup;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::openapi::{Access, with_access};

/// The senders' endpoints behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(configs::config_status, setup::save_config))
        .routes(routes!(configs::list_configs))
        .routes(routes!(configs::delete_config, configs::update_config))
        .routes(routes!(configs::set_default))
        .routes(routes!(configs::put_back))
        .routes(routes!(configs::verify_config))
        .routes(routes!(gmail::additional))
        .routes(routes!(gmail::read_access))
        .routes(routes!(sendgrid::check_username))
        .routes(routes!(sendgrid::suggest_username))
        .routes(routes!(sendgrid::send_basic_test))
        .routes(routes!(sendgrid::create_basic_address))
        .routes(routes!(outbox::outbox))
        .routes(routes!(outbox::outbox_reply))
}

/// The senders' endpoints open to any signed-in user (the profile) or to Google (the consent callback).
pub fn open_routes() -> OpenApiRouter<AppState> {
    let google = OpenApiRouter::new().routes(routes!(gmail::callback));
    let profile = OpenApiRouter::new().routes(routes!(profile::profile, profile::save_profile));
    with_access(google, Access::Public).merge(with_access(profile, Access::SignedIn))
}
