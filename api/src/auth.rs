//! Sign-in: Google OAuth 2.0 (authorization code with PKCE and state, the `oauth2` crate), the loopback-only local
//! sign-in for a fresh install, sign-out, the current user, and invite redemption.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use outreach_core::accounts::store::Redemption;
use outreach_core::accounts::{
    AccountStatus, Grant, SubscriptionStatus, User, UserView, is_valid_email, normalize_email,
};

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Access, ErrorBody, with_access};
use crate::session::{self, FLOW_TTL_MS, SignedIn, with_cookie};

/// The endpoints of this module, outside the account gate: sign-in is public, the rest needs a session.
pub fn routes() -> OpenApiRouter<AppState> {
    let public = OpenApiRouter::new()
        .routes(routes!(start_google))
        .routes(routes!(login))
        .routes(routes!(google_callback))
        // POST signs out; GET is the web app's page that posts it.
        .routes(routes!(logout, logout_page))
        .routes(routes!(local_sign_in))
        .routes(routes!(options));
    let signed_in = OpenApiRouter::new()
        .routes(routes!(current_user))
        .routes(routes!(redeem_invite));
    with_access(public, Access::Public).merge(with_access(signed_in, Access::SignedIn))
}

pub const CALLBACK_PATH: &str = "/auth/google/callback";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StartParams {
    /// An invite code typed on the sign-in page, redeemed when the provider answers.
    invite: Option<String>,
}

/// The same as `GET /auth/google` (the other name the spec uses).
#[utoipa::path(get, path = "/api/login", tag = "auth", params(StartParams),
    responses((status = 303, description = "To Google's consent screen, or to /login?error=google_not_configured")))]
pub async fn login(state: State<AppState>, params: Query<StartParams>) -> Response {
    start_google(state, params).await
}

/// Signs in with Google: redirects to the provider's consent screen.
#[utoipa::path(get, path = "/auth/google", tag = "auth", params(StartParams),
    responses((status = 303, description = "To Google's consent screen, or to /login?error=google_not_configured")))]
pub async fn start_google(
    State(state): State<AppState>,
    Query(params): Query<StartParams>,
) -> Response {
    let Some(client) = google_client(&state, CALLBACK_PATH) else {
        return Redirect::to("/login?error=google_not_configured").into_response();
    };
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let (url, csrf) = client
        .authorize_url(CsrfToken::new_random)
        .add_scopes(["openid", "email", "profile"].map(|scope| Scope::new(scope.to_string())))
        .set_pkce_challenge(challenge)
        .url();
    let invite = params
        .invite
        .map(|code| code.trim().to_uppercase())
        .filter(|code| !code.is_empty());
    let now = state.ctx.now_ms();
    let stored = async {
        state
            .ctx
            .db
            .accounts()
            .delete_stale_oauth_flows(now - FLOW_TTL_MS)
            .await?;
        state
            .ctx
            .db
            .accounts()
            .insert_oauth_flow(csrf.secret(), verifier.secret(), invite.as_deref(), now)
            .await
    };
    match stored.await {
        // The state is also set as a cookie: only this browser can finish the flow (login CSRF).
        Ok(()) => with_cookie(
            session::flow_cookie(&state, csrf.secret()),
            Redirect::to(url.as_str()),
        ),
        Err(error) => {
            tracing::error!(%error, "could not store the sign-in flow");
            Redirect::to("/login?error=server_error").into_response()
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackParams {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Where Google sends the browser back; every failure leads back to `/login` with a code the page explains.
#[utoipa::path(get, path = "/auth/google/callback", tag = "auth", params(CallbackParams),
    responses((status = 303, description = "Signed in: to the dashboard; otherwise to /login?error=...")))]
pub async fn google_callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<CallbackParams>,
) -> Response {
    match finish_google(&state, &headers, params).await {
        // The finished flow's cookie goes; after a failure it stays until it expires, so a forged callback cannot
        // end this browser's own flow.
        Ok(response) => with_cookie(session::flow_cookie_cleared(&state), response),
        Err(code) => Redirect::to(&format!("/login?error={code}")).into_response(),
    }
}

async fn finish_google(
    state: &AppState,
    headers: &HeaderMap,
    params: CallbackParams,
) -> Result<Response, &'static str> {
    if let Some(error) = params.error.as_deref() {
        tracing::info!(error, "the provider refused the sign-in");
        return Err(if error == "access_denied" {
            "access_denied"
        } else {
            "provider_error"
        });
    }
    let (Some(code), Some(returned_state)) = (params.code, params.state) else {
        return Err("missing_code");
    };
    if !state.ctx.settings.google.is_configured() {
        return Err("google_not_configured");
    }
    // A callback URL opened in a browser that did not start the flow (an attacker's, sent to a victim) is refused
    // before the flow is used up.
    if !session::flow_started_here(headers, &returned_state) {
        return Err("state_mismatch");
    }
    let now = state.ctx.now_ms();
    let flow = state
        .ctx
        .db
        .accounts()
        .take_oauth_flow(&returned_state, now - FLOW_TTL_MS)
        .await
        .map_err(|error| log_failure("flow lookup", error))?
        .ok_or("state_mismatch")?;

    let token = exchange_code(state, CALLBACK_PATH, code, flow.pkce_verifier)
        .await
        .map_err(|error| log_failure("token exchange", error))?;

    let profile = fetch_profile(state, token.access_token().secret()).await?;
    let user = sign_in(
        state,
        &profile.email,
        profile.given_name.as_deref(),
        profile.family_name.as_deref(),
    )
    .await
    .map_err(|error| log_failure("account update", error.message))?;
    let user = with_invite(state, user, flow.invite_code.as_deref(), now).await;
    let cookie = session::start(state, headers, user.id)
        .await
        .map_err(|error| log_failure("session", error.message))?;
    Ok(with_cookie(cookie, Redirect::to("/dashboard")))
}

fn log_failure(step: &str, error: impl std::fmt::Display) -> &'static str {
    tracing::warn!(step, error = %error, "Google sign-in failed");
    match step {
        "token exchange" => "token_exchange_failed",
        _ => "server_error",
    }
}

/// The OpenID Connect userinfo answer; only verified emails sign in.
#[derive(Debug, Deserialize)]
struct Profile {
    email: String,
    #[serde(default = "verified_by_default")]
    email_verified: bool,
    given_name: Option<String>,
    family_name: Option<String>,
}

fn verified_by_default() -> bool {
    true
}

async fn fetch_profile(state: &AppState, access_token: &str) -> Result<Profile, &'static str> {
    let response = state
        .http
        .get(&state.ctx.settings.google.userinfo_url)
        .bearer_auth(access_token)
        .send()
        .await
        .map_err(|error| log_failure("userinfo request", error))?;
    if !response.status().is_success() {
        log_failure("userinfo status", response.status());
        return Err("profile_failed");
    }
    let profile: Profile = response.json().await.map_err(|error| {
        log_failure("userinfo body", error);
        "profile_failed"
    })?;
    if !profile.email_verified || !is_valid_email(&profile.email) {
        return Err("email_not_verified");
    }
    Ok(profile)
}

/// Why Google's token endpoint gave no token, for the log.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExchangeError {
    #[error("google_not_configured")]
    NotConfigured,
    /// Google answered with its own error code (`invalid_grant`...).
    #[error("{0}")]
    Refused(String),
    /// No answer Google's protocol knows (the network, a body that is not one).
    #[error("{0}")]
    Failed(String),
}

/// Exchanges an authorization code (with its PKCE verifier) at Google's token endpoint.
pub(crate) async fn exchange_code(
    state: &AppState,
    callback_path: &str,
    code: String,
    verifier: String,
) -> Result<oauth2::basic::BasicTokenResponse, ExchangeError> {
    let client = google_client(state, callback_path).ok_or(ExchangeError::NotConfigured)?;
    let http = state.http.clone();
    let send = move |request: oauth2::HttpRequest| {
        let http = http.clone();
        async move { send_oauth_request(&http, request).await }
    };
    client
        .exchange_code(AuthorizationCode::new(code))
        .set_pkce_verifier(PkceCodeVerifier::new(verifier))
        .request_async(&send)
        .await
        .map_err(|error| match error {
            RequestTokenError::ServerResponse(answer) => {
                ExchangeError::Refused(answer.error().to_string())
            }
            // With its causes: the crate's own words are only "Request failed".
            other => ExchangeError::Failed(format!("{:#}", anyhow::Error::new(other))),
        })
}

/// Sends one of the `oauth2` crate's requests with the app's reqwest client.
async fn send_oauth_request(
    http: &reqwest::Client,
    request: oauth2::HttpRequest,
) -> Result<oauth2::HttpResponse, reqwest::Error> {
    let (parts, body) = request.into_parts();
    let send = || {
        http.request(parts.method.clone(), parts.uri.to_string())
            .headers(parts.headers.clone())
            .body(body.clone())
            .send()
    };
    let response = match send().await {
        // A kept-alive connection the provider closed as this request went out on it fails with no answer (the
        // client keeps idle connections longer than many servers do). Sent again once, on a new connection: a
        // code that did reach the provider the first time is refused then, as any used code is.
        Err(error) if error.is_request() && !error.is_timeout() => send().await?,
        answered => answered?,
    };
    let mut answer = http::Response::builder().status(response.status());
    if let Some(headers) = answer.headers_mut() {
        headers.extend(response.headers().clone());
    }
    let body = response.bytes().await?.to_vec();
    Ok(answer
        .body(body)
        .expect("status and headers come from a valid response"))
}

/// The Google OAuth client, answering at `callback_path` of this instance (sign-in and Gmail connections differ).
pub(crate) fn google_client(
    state: &AppState,
    callback_path: &str,
) -> Option<
    BasicClient<
        oauth2::EndpointSet,
        oauth2::EndpointNotSet,
        oauth2::EndpointNotSet,
        oauth2::EndpointNotSet,
        oauth2::EndpointSet,
    >,
> {
    let google = &state.ctx.settings.google;
    if !google.is_configured() {
        return None;
    }
    let redirect = format!("{}{callback_path}", state.ctx.settings.http.public_url());
    let parsed = (
        AuthUrl::new(google.auth_url.clone()),
        TokenUrl::new(google.token_url.clone()),
        RedirectUrl::new(redirect),
    );
    let (Ok(auth), Ok(token), Ok(redirect)) = parsed else {
        tracing::error!("the Google endpoints in the configuration are not valid URLs");
        return None;
    };
    Some(
        BasicClient::new(ClientId::new(google.client_id.clone()))
            .set_client_secret(ClientSecret::new(google.client_secret.expose().to_string()))
            .set_auth_uri(auth)
            .set_token_uri(token)
            .set_redirect_uri(redirect),
    )
}

/// Creates or refreshes the account. Administrators are activated; with invites turned off a new account starts
/// a free trial; otherwise it stays inactive until an administrator or an invite code activates it.
async fn sign_in(
    state: &AppState,
    email: &str,
    first: Option<&str>,
    last: Option<&str>,
) -> ApiResult<User> {
    let settings = &state.ctx.settings;
    let (email, now) = (normalize_email(email), state.ctx.now_ms());
    let user = state
        .ctx
        .db
        .accounts()
        .upsert_user_on_sign_in(&email, first, last, now)
        .await?;
    let grant = if settings.auth.is_admin(&email) && user.account_status != AccountStatus::Active {
        Some(Grant::Administrator)
    } else if !settings.auth.invite_only && user.subscription_status == SubscriptionStatus::None {
        Some(Grant::FreeTrial)
    } else {
        None
    };
    match grant {
        Some(grant) => Ok(state
            .ctx
            .db
            .accounts()
            .set_subscription(&email, &grant.subscription(now, &settings.accounts), now)
            .await?),
        None => Ok(user),
    }
}

/// Redeems the invite code typed with a sign-in for an account without access. A wrong or used code is not fatal:
/// the beta screen lets the person type it again.
async fn with_invite(state: &AppState, user: User, code: Option<&str>, now: i64) -> User {
    match code.map(str::trim).filter(|code| !code.is_empty()) {
        Some(code) if !user.has_access(now, &state.ctx.settings.auth) => {
            redeem(state, &user, code).await.unwrap_or(user)
        }
        _ => user,
    }
}

/// Redeems an invite code for an account that is not active yet.
async fn redeem(state: &AppState, user: &User, code: &str) -> ApiResult<User> {
    let now = state.ctx.now_ms();
    let subscription = Grant::FreeTrial.subscription(now, &state.ctx.settings.accounts);
    let code = code.trim().to_uppercase();
    match state
        .ctx
        .db
        .accounts()
        .redeem_invite(&code, &user.email, user.id, &subscription, now)
        .await?
    {
        Redemption::Redeemed(user) => Ok(*user),
        Redemption::UnknownOrUsed => Err(ApiError::validation(
            "This invite code is not valid or has already been used",
        )),
    }
}

/// The web app's sign-out page, which posts `/auth/logout` (so a link or an image on another site cannot sign anyone
/// out).
#[utoipa::path(get, path = "/auth/logout", tag = "auth",
    responses((status = 200, description = "The web app's sign-out page", content_type = "text/html"),
        (status = 503, description = "The web app is not built on this server")))]
pub async fn logout_page(uri: axum::http::Uri, headers: axum::http::HeaderMap) -> Response {
    crate::web::serve(uri, headers).await
}

/// Ends the session.
#[utoipa::path(post, path = "/auth/logout", tag = "auth", responses((status = 204, description = "Signed out")))]
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match session::end(&state, &headers).await {
        Ok(cookie) => with_cookie(cookie, crate::protection::no_content()),
        Err(error) => error.into_response(),
    }
}

/// The signed-in user, and whether their account may use the product now.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentUser {
    #[serde(flatten)]
    pub user: UserView,
    /// Active, with a plan that has not ended (administrators always).
    pub has_access: bool,
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/auth/user", tag = "auth", responses((status = 200, body = CurrentUser)))]
pub async fn current_user(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> Json<CurrentUser> {
    Json(CurrentUser {
        has_access: user.has_access(state.ctx.now_ms(), &state.ctx.settings.auth),
        user: user.view(&state.ctx.settings.auth),
    })
}

/// The ways to sign in that this instance offers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignInOptions {
    pub google: bool,
    /// Only on a loopback server without a Google client, opened by a loopback address.
    pub local_sign_in: bool,
    pub invite_only: bool,
}

/// What the sign-in page offers.
#[utoipa::path(get, path = "/api/auth/options", tag = "auth", responses((status = 200, body = SignInOptions)))]
pub async fn options(State(state): State<AppState>, headers: HeaderMap) -> Json<SignInOptions> {
    Json(SignInOptions {
        google: state.ctx.settings.google.is_configured(),
        local_sign_in: state.local_sign_in_allowed(&headers),
        invite_only: state.ctx.settings.auth.invite_only,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocalSignIn {
    email: String,
    first_name: Option<String>,
    last_name: Option<String>,
    /// An invite code typed on the sign-in page, redeemed as with Google's sign-in.
    invite: Option<String>,
}

/// Signs in by email alone: only with no Google client configured, on a loopback listener, from a loopback address.
#[utoipa::path(post, path = "/auth/local", tag = "auth", request_body = LocalSignIn, responses(
    (status = 200, description = "Signed in (the session cookie is set)", body = UserView),
    (status = 403, description = "Local sign-in is not available here", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address", body = ErrorBody)))]
pub async fn local_sign_in(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(form): JsonBody<LocalSignIn>,
) -> ApiResult<Response> {
    if !state.local_sign_in_allowed(&headers) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "local_sign_in_disabled",
            "Local sign-in is only available on a loopback server without a Google client configured, \
             opened by a loopback address",
        ));
    }
    if !is_valid_email(&form.email) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let clean = |name: Option<String>| name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty());
    let (first, last) = (clean(form.first_name), clean(form.last_name));
    let user = sign_in(&state, &form.email, first.as_deref(), last.as_deref()).await?;
    let user = with_invite(&state, user, form.invite.as_deref(), state.ctx.now_ms()).await;
    let cookie = session::start(&state, &headers, user.id).await?;
    Ok(with_cookie(
        cookie,
        Json(user.view(&state.ctx.settings.auth)),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct InviteCode {
    code: String,
}

/// A redeemed invite: the account as it now is.
#[derive(Debug, Serialize, ToSchema)]
pub struct InviteRedeemed {
    pub success: bool,
    pub user: UserView,
}

/// An inactive account enters an invite code from the beta screen.
#[utoipa::path(post, path = "/api/auth/redeem-invite", tag = "auth", request_body = InviteCode, responses(
    (status = 200, body = InviteRedeemed),
    (status = 422, description = "No code, an unknown or used code, or the account is already active", body = ErrorBody)))]
pub async fn redeem_invite(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(form): JsonBody<InviteCode>,
) -> ApiResult<Json<InviteRedeemed>> {
    if form.code.trim().is_empty() {
        return Err(ApiError::validation("Please enter your invite code"));
    }
    if user.has_access(state.ctx.now_ms(), &state.ctx.settings.auth) {
        return Err(ApiError::validation("Your account is already active"));
    }
    let user = redeem(&state, &user, &form.code).await?;
    Ok(Json(InviteRedeemed {
        success: true,
        user: user.view(&state.ctx.settings.auth),
    }))
}
