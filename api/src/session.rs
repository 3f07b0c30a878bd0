//! Server-side sessions: an opaque cookie whose SHA-256 hash keys a database row, and the extractors that
//! enforce sign-in, the account gate and the administrator role.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::{INACTIVE_MESSAGE, User};
use outreach_core::platform::clock::{DAY_MS, SECOND_MS};
use outreach_core::platform::security::{hash_token, random_token};

use crate::AppState;
use crate::error::{ApiError, ApiResult};

/// A sign-in must come back from the provider within this time.
pub(crate) const FLOW_TTL_MS: i64 = 10 * 60 * SECOND_MS;

pub const SESSION_COOKIE: &str = "outreach_session";
/// Binds an OAuth flow (sign-in or a Gmail connection) to the browser that started it: its value is the flow's
/// state, and the callback is refused without it, so a callback URL opened in another browser does nothing.
pub const FLOW_COOKIE: &str = "outreach_oauth";

/// Reads one cookie from the request headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// Starts a new session for `user_id` (a fresh id at every sign-in) and ends the one the browser had.
pub async fn start(state: &AppState, headers: &HeaderMap, user_id: i64) -> ApiResult<HeaderValue> {
    end(state, headers).await?;
    let token = random_token(32);
    let now = state.ctx.now_ms();
    let days = i64::from(state.ctx.settings.auth.session_days.max(1));
    state
        .ctx
        .db
        .accounts()
        .insert_session(&hash_token(&token), user_id, now, now + days * DAY_MS)
        .await?;
    Ok(session_cookie(state, &token, days * 86_400))
}

/// Ends the browser's session, if any, and returns the cookie that clears it.
pub async fn end(state: &AppState, headers: &HeaderMap) -> ApiResult<HeaderValue> {
    if let Some(token) = cookie(headers, SESSION_COOKIE) {
        state
            .ctx
            .db
            .accounts()
            .delete_session(&hash_token(token))
            .await?;
    }
    Ok(session_cookie(state, "", 0))
}

fn session_cookie(state: &AppState, token: &str, max_age_seconds: i64) -> HeaderValue {
    http_only_cookie(state, SESSION_COOKIE, token, max_age_seconds)
}

fn http_only_cookie(
    state: &AppState,
    name: &str,
    value: &str,
    max_age_seconds: i64,
) -> HeaderValue {
    let secure = if state.secure_cookies { "; Secure" } else { "" };
    let value = format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_seconds}{secure}"
    );
    HeaderValue::from_str(&value).expect("cookie text is ASCII")
}

/// The cookie that binds an OAuth flow with `flow_state` to this browser for as long as the flow may take.
pub fn flow_cookie(state: &AppState, flow_state: &str) -> HeaderValue {
    http_only_cookie(state, FLOW_COOKIE, flow_state, FLOW_TTL_MS / 1000)
}

/// The cookie that forgets a finished flow.
pub fn flow_cookie_cleared(state: &AppState) -> HeaderValue {
    http_only_cookie(state, FLOW_COOKIE, "", 0)
}

/// Whether the browser that came back with `returned_state` is the one that started that flow.
pub fn flow_started_here(headers: &HeaderMap, returned_state: &str) -> bool {
    cookie(headers, FLOW_COOKIE).is_some_and(|bound| {
        bound.len() == returned_state.len()
            && bound
                .bytes()
                .zip(returned_state.bytes())
                .fold(0u8, |differ, (a, b)| differ | (a ^ b))
                == 0
    })
}

/// Adds a `Set-Cookie` header to a response.
pub fn with_cookie(cookie: HeaderValue, response: impl IntoResponse) -> Response {
    let mut response = response.into_response();
    response.headers_mut().append(SET_COOKIE, cookie);
    response
}

/// The signed-in user, whatever the account's state. Answers 401 when not signed in.
pub struct SignedIn(pub User);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(user) = parts.extensions.get::<User>() {
            return Ok(SignedIn(user.clone()));
        }
        let token = cookie(&parts.headers, SESSION_COOKIE).ok_or_else(ApiError::unauthorized)?;
        let user = state
            .ctx
            .db
            .accounts()
            .find_session_user(&hash_token(token), state.ctx.now_ms())
            .await?;
        let user = user.ok_or_else(ApiError::unauthorized)?;
        parts.extensions.insert(user.clone());
        Ok(SignedIn(user))
    }
}

/// The account gate for product endpoints: 401 when not signed in, 403 `{error, message}` when the account is
/// inactive or the subscription expired (A §6, §8).
pub async fn require_active_account(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let user = match SignedIn::from_request_parts(&mut parts, &state).await {
        Ok(SignedIn(user)) => user,
        Err(rejection) => return rejection.into_response(),
    };
    if !user.has_access(state.ctx.now_ms(), &state.ctx.settings.auth) {
        return ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "account_inactive",
            INACTIVE_MESSAGE,
        )
        .into_response();
    }
    next.run(Request::from_parts(parts, body)).await
}

/// An administrator (configured admin emails), checked on the server. Everyone else gets 403.
pub struct Admin(pub User);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let SignedIn(user) = SignedIn::from_request_parts(parts, state).await?;
        if !state.ctx.settings.auth.is_admin(&user.email) {
            return Err(ApiError::forbidden("Administrator access required"));
        }
        Ok(Admin(user))
    }
}
