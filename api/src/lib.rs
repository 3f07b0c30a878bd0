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
pub mod gmail;
pub mod instance;
pub mod observability;
pub mod protection;
pub mod sending;
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
use axum::routing::{get, post};
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
    pub extractor: outreach_core::education::Extractor,
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
        .route("/api/email-usage", get(usage::email_usage))
        .route(
            "/api/campaigns",
            get(campaigns::list).post(campaigns::create),
        )
        .route(
            "/api/campaigns/{id}",
            get(campaigns::show)
                .put(campaigns::update)
                .delete(campaigns::delete),
        )
        .route(
            "/api/campaigns/{id}/education-files",
            post(campaigns::upload_education_file).layer(axum::extract::DefaultBodyLimit::max(
                campaigns::UPLOAD_BODY_LIMIT,
            )),
        )
        .route(
            "/api/email-templates",
            get(templates::list).post(templates::create),
        )
        .route(
            "/api/email-templates/{id}",
            axum::routing::put(templates::update).delete(templates::delete),
        )
        .route(
            "/api/email-templates/{id}/preview",
            post(templates::preview),
        )
        .route(
            "/api/follow-up-templates",
            post(templates::create_follow_up),
        )
        .route(
            "/api/follow-up-templates/{id}",
            get(templates::list_follow_ups)
                .put(templates::update_follow_up)
                .delete(templates::delete_follow_up),
        )
        .route(
            "/api/follow-up-templates/sequence/{template_id}",
            axum::routing::put(templates::sync_follow_ups),
        )
        .route("/api/businesses", get(businesses::list))
        .route("/api/businesses/recent", get(businesses::recent))
        .route(
            "/api/businesses/import",
            post(businesses::import).layer(axum::extract::DefaultBodyLimit::max(
                campaigns::UPLOAD_BODY_LIMIT,
            )),
        )
        .route("/api/businesses/search", post(businesses::search))
        .route(
            "/api/businesses/{id}/social-media",
            post(businesses::social_media),
        )
        .route("/api/businesses/search/{id}", get(businesses::progress))
        .route(
            "/api/businesses/search/{id}/cancel",
            post(businesses::cancel),
        )
        .route("/api/search-logs", get(businesses::logs))
        .route("/api/campaigns/send", post(sending::launch))
        .route("/api/campaigns/launch", post(sending::launch))
        .route("/api/campaigns/{id}/progress", get(sending::progress))
        .route(
            "/api/campaigns/send-test-email",
            post(sending::send_test_email),
        )
        .route("/api/campaigns/test", post(sending::test_copies))
        .route("/api/test-campaign", post(sending::test_campaign))
        .route("/api/outbox", get(sending::outbox))
        .route("/api/outbox/{id}/reply", post(sending::outbox_reply))
        .route(
            "/api/user/email-config",
            get(sending::config_status).post(sending::save_config),
        )
        .route("/api/user/email-configs", get(sending::list_configs))
        .route("/api/auth/gmail/additional", post(gmail::additional))
        .route(
            "/api/user/verify-email-config",
            post(sending::verify_config),
        )
        .route("/api/user/check-username", post(sending::check_username))
        .route("/api/user/suggest-username", get(sending::suggest_username))
        .route("/api/sendgrid/send-test", post(sending::send_basic_test))
        .route(
            "/api/sendgrid/create-basic-address",
            post(sending::create_basic_address),
        )
        .route(
            "/api/user/email-configs/{id}",
            axum::routing::delete(sending::delete_config).put(sending::update_config),
        )
        .route(
            "/api/user/email-configs/{id}/gmail-read",
            post(gmail::read_access),
        )
        .route(
            "/api/user/email-configs/{id}/set-default",
            axum::routing::put(sending::set_default),
        )
        .route("/api/emails/sent", get(emails::sent))
        .route("/api/emails/{id}", get(emails::email))
        .route("/api/analytics/campaigns", get(analytics::campaigns))
        .route("/api/analytics/daily", get(analytics::daily))
        .route("/api/campaigns/{id}/daily", get(analytics::campaign_daily))
        .route("/api/campaigns/{id}/details", get(analytics::details))
        .route("/api/contacts/all", get(contacts::all))
        .route("/api/contacts/stats", get(contacts::stats))
        .route("/api/contacts/history", get(contacts::history))
        .route("/api/contacts/notes", post(contacts::add_note))
        .route(
            "/api/contacts/notes/{id}",
            axum::routing::put(contacts::update_note).delete(contacts::delete_note),
        )
        .route("/api/emails/{id}/mark-opened", post(emails::mark_opened))
        .route("/api/emails/generate", post(generate::generate))
        .route("/api/emails/generate/{id}", get(generate::status))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            session::require_active_account,
        ));

    Router::new()
        .route("/healthz", get(observability::healthz))
        .route("/readyz", get(observability::readyz))
        .route("/auth/google", get(auth::start_google))
        .route("/api/login", get(auth::start_google))
        .route(auth::CALLBACK_PATH, get(auth::google_callback))
        .route(gmail::CALLBACK_PATH, get(gmail::callback))
        .route(
            "/api/webhooks/sendgrid/events",
            post(webhooks::sendgrid_events),
        )
        .route(
            "/api/webhooks/sendgrid/inbound/{secret}",
            post(webhooks::sendgrid_inbound).layer(axum::extract::DefaultBodyLimit::max(
                campaigns::UPLOAD_BODY_LIMIT,
            )),
        )
        // POST signs out; GET is the web app's page that posts it.
        .route(
            "/auth/logout",
            post(auth::logout).get(|uri: axum::http::Uri| web::serve(uri)),
        )
        .route("/auth/local", post(auth::local_sign_in))
        .route("/api/auth/user", get(auth::current_user))
        .route(
            "/api/user/profile",
            get(sending::profile).put(sending::save_profile),
        )
        .route("/api/auth/options", get(auth::options))
        .route("/api/auth/redeem-invite", post(auth::redeem_invite))
        .route("/api/admin/user-status", get(admin::user_status))
        .route("/api/admin/set-user-status", post(admin::set_user_status))
        .route(
            "/api/admin/invites",
            get(admin::list_invites).post(admin::create_invite),
        )
        .merge(product)
        .route("/api/admin/unsubscribes", get(admin::list_unsubscribes))
        .route("/api/instance", get(instance::instance))
        .route("/api/unsubscribe", post(unsubscribe::unsubscribe))
        .route("/api/unsubscribe/verify", get(unsubscribe::verify_link))
        .route("/t/o/{file}", get(tracking::open))
        .route("/t/c/{token}", get(tracking::click))
        // GET is the unsubscribe page (the web app); POST is RFC 8058 one-click.
        .route(
            protection::ONE_CLICK_PATH,
            post(tracking::one_click).get(|uri: axum::http::Uri| web::serve(uri)),
        )
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
