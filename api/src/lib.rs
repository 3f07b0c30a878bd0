//! Outreach API: `app(state) -> Router` with sign-in, the account gate, administrator endpoints, health, request
//! metrics and the web app, and `openapi()`, the description of exactly those routes (both come from the same
//! routers). Handlers stay thin: validate, check ownership, write, enqueue.

pub mod admin;
pub mod analytics;
pub mod auth;
pub mod automations;
pub mod businesses;
pub mod campaigns;
pub mod clients;
pub mod contacts;
pub mod emails;
pub mod error;
pub mod follow_ups;
pub mod generate;
pub mod icebreakers;
pub mod inbox;
pub mod instance;
pub mod observability;
pub mod openapi;
pub mod protection;
pub mod responses;
pub mod senders;
pub mod sends;
pub mod session;
pub mod state;
pub mod templates;
pub mod test_sends;
pub mod tracking;
pub mod unsubscribe;
pub mod upload;
pub mod usage;
pub mod variants;
pub mod web;
pub mod webhooks;

use std::sync::Arc;

use axum::middleware;
use axum::{Extension, Router};
use utoipa_axum::router::OpenApiRouter;

use crate::error::ApiError;
use crate::openapi::{Access, with_access};
pub use crate::state::{AppState, wait_for};

/// Every endpoint, described: the open ones, and the product ones that sit behind the account gate (A §6).
fn routers() -> (OpenApiRouter<AppState>, OpenApiRouter<AppState>) {
    let product = OpenApiRouter::new()
        .merge(usage::routes())
        .merge(campaigns::routes())
        .merge(variants::routes())
        .merge(templates::routes())
        .merge(businesses::routes())
        .merge(icebreakers::routes())
        .merge(sends::routes())
        .merge(test_sends::routes())
        .merge(senders::routes())
        .merge(emails::routes())
        .merge(analytics::routes())
        .merge(contacts::routes())
        .merge(generate::routes())
        .merge(follow_ups::routes())
        .merge(responses::routes())
        .merge(inbox::routes())
        .merge(automations::routes());
    let public = OpenApiRouter::new()
        .merge(observability::routes())
        .merge(webhooks::routes())
        .merge(instance::routes())
        .merge(unsubscribe::routes())
        .merge(tracking::routes())
        .merge(openapi::routes());
    let open = with_access(public, Access::Public)
        .merge(auth::routes())
        .merge(senders::open_routes())
        .merge(admin::routes());
    (open, with_access(product, Access::Gated))
}

/// The OpenAPI 3.1 description of every route `app()` mounts.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (open, product) = routers();
    openapi::finish(open.merge(product).into_openapi())
}

pub fn app(state: AppState) -> Router {
    let (open, product) = routers();
    let product = product.route_layer(middleware::from_fn_with_state(
        state.clone(),
        session::require_active_account,
    ));
    let (router, description) = open.merge(product).split_for_parts();
    let description = Arc::new(openapi::finish(description));
    router
        .route("/api/{*rest}", axum::routing::any(unknown_endpoint))
        .fallback(web::serve)
        .layer(Extension(description))
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
