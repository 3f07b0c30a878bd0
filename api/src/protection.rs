//! What every request passes before a handler and every answer carries after it: the `Host` must be one of this
//! server's names (a page whose name was rebound to our address must not reach the API as a same-origin caller),
//! a mutating request must come from our own origin with a JSON or multipart body (CSRF), every answer carries the
//! security headers, and an error answered outside our handlers (axum's extractors, routing, body limits) is turned
//! into the `{error, message}` shape.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::clients::host;
use crate::error::ApiError;

/// Paths any name may ask for: load balancers and container health checks use addresses, not our name.
const ANY_HOST: [&str; 2] = ["/healthz", "/readyz"];

/// The unsubscribe link of every message: the page on GET, RFC 8058 one-click on POST.
pub const ONE_CLICK_PATH: &str = "/unsubscribe";

/// The app loads only its own scripts and styles, is never framed, and posts forms only to itself. Inline styles
/// stay allowed for components that set them; message bodies are shown in sandboxed frames with their own policy.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; frame-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses a request for a name that is not ours (421), except health checks.
pub async fn own_host_only(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if !ANY_HOST.contains(&request.uri().path()) && !state.hosts.contains(host(request.headers())) {
        return ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "unknown_host",
            "This server does not answer for that host name",
        )
        .into_response();
    }
    next.run(request).await
}

/// Mutating requests must come from our own pages: a foreign `Origin` is refused (CSRF), and a body must be JSON.
pub async fn same_origin_json(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let mutating = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    // One-click unsubscribes come from mail providers as forms, without an Origin; the signature is their proof.
    if mutating && request.uri().path() != ONE_CLICK_PATH {
        if let Some(origin) = request
            .headers()
            .get(header::ORIGIN)
            .and_then(|v| v.to_str().ok())
            && !state.hosts.is_own_origin(origin, host(request.headers()))
        {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_origin",
                "Cross-site requests are not allowed",
            )
            .into_response();
        }
        if has_body(request.headers()) && !is_json_or_upload(request.headers()) {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Request bodies must be JSON (Content-Type: application/json)",
            )
            .into_response();
        }
    }
    next.run(request).await
}

fn has_body(headers: &HeaderMap) -> bool {
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    length.is_some_and(|length| length > 0) || headers.contains_key(header::TRANSFER_ENCODING)
}

/// JSON, or a file upload (multipart; cross-site ones are stopped by the Origin check and SameSite cookies).
fn is_json_or_upload(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|value| {
            let value = value.trim_start().to_ascii_lowercase();
            value.starts_with("application/json") || value.starts_with("multipart/form-data")
        })
}

/// Adds the security headers to every answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // `same-origin` keeps the Origin header on our own writes (`no-referrer` would send `Origin: null`).
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    response
}

/// API errors answered outside our handlers (a path or query that does not parse, a method not allowed, a body
/// over its limit) come as plain text or empty: they get the API's `{error, message}` body, with the text kept.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let api = {
        let path = request.uri().path();
        path.starts_with("/api/") || path.starts_with("/auth/")
    };
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"));
    if !api || is_json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let allow = response.headers().get(header::ALLOW).cloned();
    let text = match axum::body::to_bytes(response.into_body(), 64 * 1024).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        "The request is too large: JSON bodies take at most 2 MB".to_string()
    } else if status.is_server_error() || text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("Request failed")
            .to_string()
    } else {
        text
    };
    let code = match status {
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        status if status.is_server_error() => "internal_error",
        _ => "bad_request",
    };
    let mut response = ApiError::new(status, code, message).into_response();
    if let Some(allow) = allow {
        response.headers_mut().insert(header::ALLOW, allow);
    }
    response
}

/// An empty body for answers that need none.
pub fn no_content() -> Response {
    Response::builder()
        .status(StatusCode::NO_CONTENT)
        .body(Body::empty())
        .expect("a status and no body make a response")
}
