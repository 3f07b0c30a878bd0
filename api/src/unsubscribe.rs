//! Unsubscribe (B §2.16, §5, §8): a public form posts an address, which joins the suppression list every send
//! consults. Asking twice is harmless; each client address may post a few times a minute. Links in sent mail carry
//! an opaque sealed token (older ones the address and its signature) so the page can pre-fill the address.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use governor::clock::{Clock as _, DefaultClock};
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::sending::links::{unsubscribe_address, unsubscribe_link};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};

/// The endpoints of this module, public.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(unsubscribe))
        .routes(routes!(verify_link))
}

/// The client's address: the configured proxy header's first entry, else the connection's peer.
fn client_ip(state: &AppState, headers: &HeaderMap, peer: Option<SocketAddr>) -> Option<IpAddr> {
    let header_name = &state.ctx.settings.http.client_ip_header;
    if !header_name.is_empty()
        && let Some(forwarded) = headers
            .get(header_name.as_str())
            .and_then(|value| value.to_str().ok())
        && let Some(ip) = forwarded
            .split(',')
            .next()
            .and_then(|first| first.trim().parse().ok())
    {
        return Some(ip);
    }
    peer.map(|address| address.ip())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UnsubscribeForm {
    email: Option<String>,
    /// Present when the page was opened from an older signed link in an email.
    signature: Option<String>,
    /// Present when the page was opened from a link in an email: its sealed token, which names the address.
    token: Option<String>,
}

/// Puts an address on the suppression list (B §2.16): no campaign email goes to it again.
#[utoipa::path(post, path = "/api/unsubscribe", tag = "public", request_body = UnsubscribeForm, responses(
    (status = 200, description = "{email} has been removed from all marketing lists.", body = Done),
    (status = 422, description = "Please enter a valid email address", body = ErrorBody),
    (status = 429, description = "Too many requests from this address; Retry-After says when to ask again", body = ErrorBody)))]
pub async fn unsubscribe(
    State(state): State<AppState>,
    headers: HeaderMap,
    // Present when served with connection info (the binary does); absent, there is no per-client limit.
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    JsonBody(form): JsonBody<UnsubscribeForm>,
) -> ApiResult<Response> {
    if let Some(ip) = client_ip(
        &state,
        &headers,
        peer.map(|Extension(ConnectInfo(address))| address),
    ) {
        if state.public_limiter.len() > 10_000 {
            state.public_limiter.retain_recent();
        }
        if let Err(not_until) = state.public_limiter.check_key(&ip) {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "Too many requests. Please try again in a minute.",
            )
            .into_response();
            let seconds = wait.as_secs().max(1).to_string();
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_str(&seconds).expect("digits"),
            );
            return Ok(response);
        }
    }
    let linked = unsubscribe_address(
        &state.ctx.settings,
        form.token.as_deref(),
        form.email.as_deref(),
        form.signature.as_deref(),
    );
    // A link's token names its address; an address typed in the form is taken as typed.
    let email = match (&linked, form.token.is_some()) {
        (Some(address), true) => address.clone(),
        _ => form
            .email
            .as_deref()
            .map(normalize_email)
            .unwrap_or_default(),
    };
    if !is_valid_email(&email) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let from_link = linked.as_deref() == Some(email.as_str());
    let source = if from_link { "link" } else { "form" };
    let added = state
        .unsubscriber
        .unsubscribe(email.clone(), source, state.ctx.now_ms())
        .await
        .map_err(ApiError::internal)?;
    if added {
        tracing::info!(source, "address unsubscribed");
    }
    Ok(Json(Done {
        success: true,
        message: format!("{email} has been removed from all marketing lists."),
    })
    .into_response())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkParams {
    /// The link's sealed token.
    t: Option<String>,
    /// An older link's address and signature.
    email: Option<String>,
    signature: Option<String>,
}

/// The address of a signed unsubscribe link, and the sender whose emails it stops (none for older links).
#[derive(Debug, Serialize, ToSchema)]
pub struct LinkAddress {
    pub email: String,
    pub sender: Option<String>,
}

/// Whether an unsubscribe link's address may be pre-filled in the form.
#[utoipa::path(get, path = "/api/unsubscribe/verify", tag = "public", params(LinkParams), responses(
    (status = 200, body = LinkAddress),
    (status = 400, description = "This unsubscribe link is not valid", body = ErrorBody)))]
pub async fn verify_link(
    State(state): State<AppState>,
    Query(params): Query<LinkParams>,
) -> ApiResult<Json<LinkAddress>> {
    if let Some(linked) = unsubscribe_link(
        &state.ctx.settings,
        params.t.as_deref(),
        params.email.as_deref(),
        params.signature.as_deref(),
    ) {
        Ok(Json(LinkAddress {
            email: linked.email,
            sender: linked.sender,
        }))
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_signature",
            "This unsubscribe link is not valid",
        ))
    }
}
