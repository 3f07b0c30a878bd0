//! Tracking and one-click unsubscribe, the links every sent message carries. `GET /t/o/{token}.gif` (open pixel)
//! and `GET /t/c/{token}?u=&s=` (click: redirects only to the address signed with that message's token; anything
//! tampered is a 404, never a redirect). Events go to a batched writer that flushes at most every 50 ms or 20,000
//! events, and once more when the server stops, so a clean restart loses none. `POST /unsubscribe?t=` (the sealed
//! token of links sent since issue 81; an older link's `?email=&signature=` still works) is RFC 8058 one-click: it suppresses at once, without a confirmation step, and answers once the address is stored
//! (a burst of them shares one write); GET of the same URL is the page.

use std::borrow::Cow;
use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, RawQuery, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use outreach_core::sending::links::{unsubscribe_address, verify_click, verify_open};
use outreach_core::tracking::events::{EventKind, TrackingEvent};

use crate::AppState;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The endpoints of this module, public (each link carries its own signature).
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open))
        .routes(routes!(click))
        // GET is the unsubscribe page (the web app); POST is RFC 8058 one-click.
        .routes(routes!(one_click, unsubscribe_page))
}

/// A transparent 1×1 GIF.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

/// The request's User-Agent, read without copying the other headers (the tracking links are the busiest routes).
pub struct UserAgent(Option<String>);

impl<S: Sync> FromRequestParts<S> for UserAgent {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let agent = parts.headers.get(header::USER_AGENT);
        Ok(Self(
            agent
                .and_then(|value| value.to_str().ok())
                .map(str::to_string),
        ))
    }
}

/// A parameter of a tracking link's query (the last one when it is repeated), decoded without building a map.
fn query_value<'a>(query: &'a Option<String>, name: &str) -> Option<Cow<'a, str>> {
    let pairs = url::form_urlencoded::parse(query.as_deref()?.as_bytes());
    pairs
        .filter(|(key, _)| key == name)
        .map(|(_, value)| value)
        .last()
}

/// The open pixel of a sent message (`{file}` is its token and `.gif`); records an open.
#[utoipa::path(get, path = "/t/o/{file}", tag = "tracking",
    params(("file" = String, Path), ("s" = String, Query, description = "The token's signature")),
    responses(
        (status = 200, description = "A transparent 1x1 GIF", content_type = "image/gif"),
        (status = 404, description = "Unknown token or bad signature")))]
pub async fn open(
    State(state): State<AppState>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
    UserAgent(user_agent): UserAgent,
) -> Response {
    let token = file.strip_suffix(".gif").unwrap_or(&file);
    let signature = query_value(&query, "s").unwrap_or_default();
    if !verify_open(&state.ctx.settings, token, &signature) {
        return StatusCode::NOT_FOUND.into_response();
    }
    state
        .recorder
        .record(TrackingEvent::new(
            token.to_string(),
            EventKind::Open,
            None,
            user_agent,
            state.ctx.now_ms(),
        ))
        .await;
    (
        [
            (header::CONTENT_TYPE, "image/gif"),
            (header::CACHE_CONTROL, "no-store, max-age=0"),
        ],
        PIXEL,
    )
        .into_response()
}

/// A tracked link of a sent message: records a click and redirects to the address signed with the message's token.
#[utoipa::path(get, path = "/t/c/{token}", tag = "tracking",
    params(("token" = String, Path), ("u" = String, Query, description = "The link's address"),
        ("s" = String, Query, description = "The signature of token and address")),
    responses(
        (status = 303, description = "To the link's address"),
        (status = 404, description = "A tampered or unknown link: never a redirect")))]
pub async fn click(
    State(state): State<AppState>,
    Path(token): Path<String>,
    RawQuery(query): RawQuery,
    UserAgent(user_agent): UserAgent,
) -> Response {
    let (Some(url), Some(signature)) = (query_value(&query, "u"), query_value(&query, "s")) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let web = url.starts_with("https://") || url.starts_with("http://");
    if !web || !verify_click(&state.ctx.settings, &token, &url, &signature) {
        return StatusCode::NOT_FOUND.into_response();
    }
    state
        .recorder
        .record(TrackingEvent::new(
            token,
            EventKind::Click,
            Some(url.to_string()),
            user_agent,
            state.ctx.now_ms(),
        ))
        .await;
    Redirect::to(&url).into_response()
}

/// The unsubscribe page of the web app (the `List-Unsubscribe` address opened in a browser).
#[utoipa::path(get, path = "/unsubscribe", tag = "tracking",
    params(("t" = Option<String>, Query, description = "The link's sealed token"),
        ("email" = Option<String>, Query, description = "An older link's address"),
        ("signature" = Option<String>, Query, description = "An older link's signature")),
    responses((status = 200, description = "The web app's unsubscribe page", content_type = "text/html"),
        (status = 503, description = "The web app is not built on this server")))]
pub async fn unsubscribe_page(uri: axum::http::Uri, headers: axum::http::HeaderMap) -> Response {
    crate::web::serve(uri, headers).await
}

/// RFC 8058 one-click unsubscribe: suppresses at once. The signature is the authority; the body is the
/// `List-Unsubscribe=One-Click` form mail providers send.
#[utoipa::path(post, path = "/unsubscribe", tag = "tracking",
    params(("t" = Option<String>, Query, description = "The link's sealed token"),
        ("email" = Option<String>, Query, description = "An older link's address"),
        ("signature" = Option<String>, Query, description = "An older link's signature")),
    responses(
        (status = 200, description = "You are unsubscribed.", content_type = "text/plain"),
        (status = 404, description = "Bad signature"),
        (status = 503, description = "Not recorded; the mail provider retries")))]
pub async fn one_click(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    _body: Bytes,
) -> Response {
    let Some(email) = unsubscribe_address(
        &state.ctx.settings,
        query_value(&query, "t").as_deref(),
        query_value(&query, "email").as_deref(),
        query_value(&query, "signature").as_deref(),
    ) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match state
        .unsubscriber
        .unsubscribe(email, "one_click", state.ctx.now_ms())
        .await
    {
        Ok(_) => (StatusCode::OK, "You are unsubscribed.").into_response(),
        Err(_) => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}
