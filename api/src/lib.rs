//! Outreach API: `app(state) -> Router` with sign-in, the account gate, administrator endpoints, health, request
//! metrics and the web app. Handlers stay thin: validate, check ownership, write, enqueue.

pub mod admin;
pub mod analytics;
pub mod auth;
pub mod businesses;
pub mod campaigns;
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
pub mod templates;
pub mod tracking;
pub mod unsubscribe;
pub mod upload;
pub mod usage;
pub mod web;
pub mod webhooks;

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::http::HeaderMap;
use axum::middleware;
use outreach_core::Context;

use crate::error::ApiError;

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    pub ctx: Context,
    /// Outbound HTTP (OAuth token exchange, userinfo, later providers).
    pub http: reqwest::Client,
    /// Cookies get `Secure` when the public URL is https.
    pub secure_cookies: bool,
    /// Per-client limit of public write endpoints.
    pub public_limiter: unsubscribe::ClientLimiter,
    /// The batched writer of tracking events; `finish` it after the server stops.
    pub recorder: tracking::Recorder,
    /// The host names this server answers to.
    pub hosts: protection::OwnHosts,
    /// Where uploaded education files are read (the `outreach` binary reads them in a child process).
    pub extractor: outreach_core::campaigns::education::Extractor,
    listen: SocketAddr,
}

impl AppState {
    pub fn new(ctx: Context) -> anyhow::Result<Self> {
        anyhow::ensure!(
            !ctx.settings.security.secret_key.is_empty(),
            "the secret key is not loaded"
        );
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(10))
            // The OAuth token endpoint must not be followed to another host with the code.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Outreach/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let secure_cookies = ctx.settings.http.public_url().starts_with("https://");
        let listen = ctx.settings.http.listen;
        let public_limiter =
            unsubscribe::client_limiter(ctx.settings.http.public_writes_per_minute);
        Ok(Self {
            recorder: tracking::Recorder::start(ctx.db.clone()),
            hosts: protection::OwnHosts::of(&ctx.settings),
            extractor: Default::default(),
            ctx,
            http,
            secure_cookies,
            public_limiter,
            listen,
        })
    }

    /// The local sign-in is for trying a fresh install: no Google client, a server only this machine reaches, and
    /// a request that reached it by a loopback name (not through a proxy's public name).
    pub fn local_sign_in_allowed(&self, headers: &HeaderMap) -> bool {
        !self.ctx.settings.google.is_configured()
            && self.listen.ip().is_loopback()
            && protection::is_loopback_host(headers)
    }
}

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

/// Waits for queued work the way DESIGN §1 asks of synchronous calls: re-reads `load` every 100 ms until `done`
/// holds or `bound` passes, and returns the last value read (the caller answers "still running" from it).
pub async fn wait_for<T, Load, Fut>(
    bound: std::time::Duration,
    mut load: Load,
    done: impl Fn(&T) -> bool,
) -> error::ApiResult<T>
where
    Load: FnMut() -> Fut,
    Fut: std::future::Future<Output = error::ApiResult<T>>,
{
    let deadline = std::time::Instant::now() + bound;
    loop {
        let value = load().await?;
        if done(&value) || std::time::Instant::now() >= deadline {
            return Ok(value);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn unknown_endpoint() -> ApiError {
    ApiError::not_found("No such endpoint")
}
