//! The state every handler shares (the core context, outbound HTTP, the tracking recorder, the host and rate
//! guards), and how a synchronous call waits for queued work.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
use outreach_core::Context;
use outreach_core::tracking::recorder::Recorder;
use outreach_core::tracking::unsubscriber::Unsubscriber;

use crate::clients::{self, ClientLimiter, OwnHosts};
use crate::error::ApiResult;

/// Shared state of every handler. Axum clones it for every request, so it is one reference-counted pointer: a
/// clone of the fields themselves (the host names' set, the settings' strings) cost a tenth of the tracking
/// pixel's CPU (docs/benchmarks.md, Tracking).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

/// What `AppState` points to.
pub struct Shared {
    pub ctx: Context,
    /// Outbound HTTP (OAuth token exchange, userinfo, later providers).
    pub http: reqwest::Client,
    /// Cookies get `Secure` when the public URL is https.
    pub secure_cookies: bool,
    /// Per-client limit of public write endpoints.
    pub public_limiter: ClientLimiter,
    /// The batched writer of tracking events; `finish` it after the server stops.
    pub recorder: Recorder,
    /// The unsubscribe links' writer: a burst of them shares one write.
    pub unsubscriber: Unsubscriber,
    /// The host names this server answers to.
    pub hosts: OwnHosts,
    /// Where uploaded education files are read (the `outreach` binary reads them in a child process).
    pub extractor: outreach_core::campaigns::education::Extractor,
    listen: SocketAddr,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    pub fn new(ctx: Context) -> anyhow::Result<Self> {
        Self::with_extractor(ctx, Default::default())
    }

    /// The state with uploads read by `extractor`.
    pub fn with_extractor(
        ctx: Context,
        extractor: outreach_core::campaigns::education::Extractor,
    ) -> anyhow::Result<Self> {
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
        let public_limiter = clients::client_limiter(ctx.settings.http.public_writes_per_minute);
        Ok(Self(Arc::new(Shared {
            recorder: Recorder::start(ctx.db.clone()),
            unsubscriber: Unsubscriber::start(ctx.db.clone()),
            hosts: OwnHosts::of(&ctx.settings),
            extractor,
            ctx,
            http,
            secure_cookies,
            public_limiter,
            listen,
        })))
    }

    /// The local sign-in is for trying a fresh install: no Google client, a server only this machine reaches, and
    /// a request that reached it by a loopback name (not through a proxy's public name).
    pub fn local_sign_in_allowed(&self, headers: &HeaderMap) -> bool {
        !self.ctx.settings.google.is_configured()
            && self.listen.ip().is_loopback()
            && clients::is_loopback_host(headers)
    }
}

/// Waits for queued work the way DESIGN §1 asks of synchronous calls: re-reads `load` every 100 ms until `done`
/// holds or `bound` passes, and returns the last value read (the caller answers "still running" from it).
pub async fn wait_for<T, Load, Fut>(
    bound: std::time::Duration,
    mut load: Load,
    done: impl Fn(&T) -> bool,
) -> ApiResult<T>
where
    Load: FnMut() -> Fut,
    Fut: std::future::Future<Output = ApiResult<T>>,
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
