//! Outreach API: `app(state) -> Router` with sign-in, the account gate, administrator endpoints, health, request
//! metrics and the web app. Handlers stay thin: validate, check ownership, write, enqueue.

pub mod admin;
pub mod analytics;
pub mod auth;
pub mod businesses;
pub mod campaigns;
pub mod clients;
pub mod contacts;
pub mod emails;
pub mod error;
pub mod generate;
pub mod instance;
pub mod observability;
pub mod protection;
pub mod senders;
pub mod sends;
pub mod session;
pub mod state;
pub mod templates;
pub mod tracking;
pub mod unsubscribe;
pub mod upload;
pub mod usage;
pub mod web;
pub mod webhooks;

use axum::Router;
use axum::middleware;

use crate::error::ApiError;
pub use crate::state::{AppState, wait_for};

pub fn app(state: AppState) -> Router {
    // Product endpoints: every one of them sits behind the account gate (A §6).
    let product = Router::new()
        .merge(usage::routes())
        .merge(campaigns::routes())
        .merge(templates::routes())
        .merge(businesses::routes())
        .merge(sends::routes())
        .merge(senders::routes())
        .merge(emails::routes())
        .merge(analytics::routes())
        .merge(contacts::routes())
        .merge(generate::routes())
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            session::require_active_account,
        ));

    Router::new()
        .merge(observability::routes())
        .merge(auth::routes())
        .merge(senders::open_routes())
        .merge(webhooks::routes())
        .merge(admin::routes())
        .merge(instance::routes())
        .merge(unsubscribe::routes())
        .merge(tracking::routes())
        .merge(product)
        .route("/api/{*rest}", axum::routing::any(unknown_endpoint))
        .fallback(web::serve)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            protection::same_origin_json,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            protection::own_host_only,
        ))
        .layer(middleware::from_fn(protection::json_errors))
        .layer(middleware::from_fn(protection::security_headers))
        .layer(middleware::from_fn(observability::record_request))
        .with_state(state)
}

async fn unknown_endpoint() -> ApiError {
    ApiError::not_found("No such endpoint")
}
