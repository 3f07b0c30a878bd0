//! Level 1 senders (A §4 Gmail OAuth setup flow, §6, §7 Email setup): a Gmail address connected with Google's
//! consent for `gmail.send` only and offline access; reading the mailbox for replies (`gmail.readonly`) is a second,
//! optional consent the user asks for per sender. The flow is bound to the signed-in user (state and PKCE); the
//! callback stores the refresh token encrypted as a Gmail sender and ends on `/gmail-oauth-result`. Sending uses the
//! Gmail API (`outreach_core::sending::mail_apis::Gmail`), which refreshes access tokens as they expire.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use oauth2::{CsrfToken, PkceCodeChallenge, Scope, TokenResponse};
use outreach_core::accounts::store::GmailFlow;
use outreach_core::accounts::{User, is_valid_email, normalize_email};
use outreach_core::platform::config::Secret;
use outreach_core::platform::security::encrypt_secret;
use outreach_core::sending::domain_auth::is_consumer_gmail;
use outreach_core::sending::mail_apis::Gmail;
use outreach_core::sending::senders::{NewEmailConfig, Provider};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::AppState;
use crate::auth::{exchange_code, google_client};
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::{self, FLOW_TTL_MS, SignedIn, with_cookie};

/// Where Google sends the browser back after the consent screen.
pub const CALLBACK_PATH: &str = "/api/gmail/callback";
/// The permission every Gmail sender needs: sending mail as the user (A §6).
pub const GMAIL_SEND_SCOPE: &str = "https://www.googleapis.com/auth/gmail.send";
/// The optional second permission, asked for only when the user chooses to have replies read: reading the mailbox.
pub const GMAIL_READ_SCOPE: &str = "https://www.googleapis.com/auth/gmail.readonly";
/// Daily caps of Google's own limits: consumer Gmail and Workspace mailboxes.
const GMAIL_DAILY_CAP: i32 = 500;
const WORKSPACE_DAILY_CAP: i32 = 2_000;

/// The sender identity a connection is started for.
pub struct Identity {
    pub address: String,
    pub name: String,
    pub reply_to: String,
}

impl Identity {
    /// The user's own name and login address as reply-to, for `address`.
    pub fn of(
        user: &User,
        address: String,
        name: Option<String>,
        reply_to: Option<String>,
    ) -> Self {
        let own_name = [user.first_name.as_deref(), user.last_name.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let name =
            name.filter(|name| !name.trim().is_empty())
                .unwrap_or(if own_name.trim().is_empty() {
                    user.email.clone()
                } else {
                    own_name
                });
        Self {
            address,
            name: name.trim().to_string(),
            reply_to: reply_to.unwrap_or_else(|| user.email.clone()),
        }
    }
}

fn not_configured() -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "provider_unavailable",
        "Gmail sending needs a Google OAuth client on this instance (google.client_id and google.client_secret); \
         use SMTP, SendGrid or the local outbox meanwhile",
    )
}

/// Google's consent URL for a flow, and the cookie that binds the flow to the browser that asked for it.
pub struct Consent {
    pub url: String,
    pub cookie: http::HeaderValue,
}

/// Google's consent URL for `identity` (sending; with `read`, reading the mailbox too), with the flow stored so that
/// only this user, in this browser, can finish it.
pub async fn consent_url(
    state: &AppState,
    user: &User,
    identity: &Identity,
    read: bool,
) -> ApiResult<Consent> {
    let client = google_client(state, CALLBACK_PATH).ok_or_else(not_configured)?;
    let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
    let mut request = client
        .authorize_url(CsrfToken::new_random)
        .add_scope(Scope::new(GMAIL_SEND_SCOPE.into()));
    if read {
        request = request.add_scope(Scope::new(GMAIL_READ_SCOPE.into()));
    }
    let (url, csrf) = request
        .add_extra_param("access_type", "offline")
        // A refresh token is only issued on a fresh consent.
        .add_extra_param("prompt", "consent")
        .add_extra_param("login_hint", &identity.address)
        .set_pkce_challenge(challenge)
        .url();
    let now = state.ctx.now_ms();
    let db = &state.ctx.db;
    db.accounts()
        .delete_stale_oauth_flows(now - FLOW_TTL_MS)
        .await?;
    let flow = GmailFlow {
        user_id: user.id,
        gmail_address: &identity.address,
        sender_name: &identity.name,
        reply_to: &identity.reply_to,
        read,
    };
    db.accounts()
        .insert_gmail_flow(csrf.secret(), verifier.secret(), &flow, now)
        .await?;
    Ok(Consent {
        url: url.to_string(),
        cookie: session::flow_cookie(state, csrf.secret()),
    })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdditionalRequest {
    email: String,
    /// The sender's name and reply-to; the user's own by default.
    email_send_from_name: Option<String>,
    email_reply_to: Option<String>,
}

/// Google's consent URL for the browser to go to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentUrl {
    pub auth_url: String,
}

/// Google's consent URL for connecting another Gmail or Workspace address.
#[utoipa::path(post, path = "/api/auth/gmail/additional", tag = "senders", request_body = AdditionalRequest, responses(
    (status = 200, body = ConsentUrl),
    (status = 422, description = "An invalid address, or this instance has no Google OAuth client", body = ErrorBody)))]
pub async fn additional(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<AdditionalRequest>,
) -> ApiResult<Response> {
    let address = normalize_email(&request.email);
    if address.is_empty() {
        return Err(ApiError::validation("Please enter a Gmail address"));
    }
    if !is_valid_email(&address) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let reply_to = crate::senders::request::reply_to_address(&request.email_reply_to)?;
    let identity = Identity::of(&user, address, request.email_send_from_name, reply_to);
    let consent = consent_url(&state, &user, &identity, false).await?;
    Ok(with_cookie(
        consent.cookie,
        Json(ConsentUrl {
            auth_url: consent.url,
        }),
    ))
}

/// Google's consent URL for the optional second permission, letting Outreach read one of the user's Gmail senders
/// for replies.
#[utoipa::path(post, path = "/api/user/email-configs/{id}/gmail-read", tag = "senders", params(("id" = i64, Path)),
    responses((status = 200, body = ConsentUrl),
        (status = 404, description = "Gmail sender not found", body = ErrorBody),
        (status = 422, description = "This instance has no Google OAuth client", body = ErrorBody)))]
pub async fn read_access(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    let config = state
        .ctx
        .db
        .sending()
        .find_email_config(id, user.id)
        .await?
        .filter(|config| config.provider == Provider::Gmail)
        .ok_or_else(|| ApiError::not_found("Gmail sender not found"))?;
    let identity = Identity {
        address: config.send_from.clone(),
        name: config.send_from_name.clone(),
        reply_to: config
            .reply_to
            .clone()
            .unwrap_or_else(|| user.email.clone()),
    };
    let consent = consent_url(&state, &user, &identity, true).await?;
    Ok(with_cookie(
        consent.cookie,
        Json(ConsentUrl {
            auth_url: consent.url,
        }),
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackParams {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// Where Google sends the browser back: saves the connected sender and ends on `/gmail-oauth-result`, which explains
/// any failure (`access_denied`, `no_auth_code`, `callback_failed`).
#[utoipa::path(get, path = "/api/gmail/callback", tag = "senders", params(CallbackParams),
    responses((status = 303, description = "To /gmail-oauth-result with the outcome")))]
pub async fn callback(
    State(state): State<AppState>,
    headers: http::HeaderMap,
    signed_in: Result<SignedIn, ApiError>,
    Query(params): Query<CallbackParams>,
) -> Response {
    // Only the browser that asked for the consent finishes the connection.
    let started_here = params
        .state
        .as_deref()
        .is_some_and(|returned| session::flow_started_here(&headers, returned));
    let outcome = match params.error.as_deref() {
        Some("access_denied") => Err("access_denied"),
        Some(error) => {
            tracing::info!(error, "Google refused the Gmail connection");
            Err("callback_failed")
        }
        None if !started_here => {
            tracing::warn!("a Gmail callback came back to a browser that did not start it");
            Err("callback_failed")
        }
        None => finish(&state, signed_in.ok().map(|SignedIn(user)| user), params).await,
    };
    match outcome {
        // The finished flow's cookie goes; after a failure it stays until it expires, so a forged callback cannot
        // end this browser's own flow.
        Ok(address) => with_cookie(
            session::flow_cookie_cleared(&state),
            Redirect::to(&format!(
                "/gmail-oauth-result?success=gmail_oauth_complete&email={}",
                url_escape(&address)
            )),
        ),
        Err(code) => {
            Redirect::to(&format!("/gmail-oauth-result?success=false&error={code}")).into_response()
        }
    }
}

fn url_escape(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn finish(
    state: &AppState,
    user: Option<User>,
    params: CallbackParams,
) -> Result<String, &'static str> {
    let (Some(code), Some(returned_state)) = (params.code, params.state) else {
        return Err("no_auth_code");
    };
    let failed = |step: &str, error: &dyn std::fmt::Display| {
        tracing::warn!(step, error = %error, "Gmail connection failed");
        "callback_failed"
    };
    let now = state.ctx.now_ms();
    let flow = state
        .ctx
        .db
        .accounts()
        .take_oauth_flow(&returned_state, now - FLOW_TTL_MS)
        .await
        .map_err(|error| failed("flow lookup", &error))?
        .ok_or("callback_failed")?;
    // The flow belongs to the account that started it: another session cannot finish it.
    let (Some(user), Some(owner), Some(address)) = (user, flow.user_id, flow.gmail_address) else {
        return Err("callback_failed");
    };
    if user.id != owner {
        return Err(failed("owner", &"the flow was started by another account"));
    }
    let token = exchange_code(state, CALLBACK_PATH, code, flow.pkce_verifier)
        .await
        .map_err(|error| failed("token exchange", &error))?;
    // Google's granular consent lets a person untick a permission; without sending nothing could be done.
    let granted = |wanted: &str| {
        token
            .scopes()
            .is_none_or(|scopes| scopes.iter().any(|scope| scope.as_str() == wanted))
    };
    if !granted(GMAIL_SEND_SCOPE) {
        return Err("access_denied");
    }
    let read = flow.gmail_read && granted(GMAIL_READ_SCOPE);
    let refresh = token
        .refresh_token()
        .ok_or_else(|| failed("token exchange", &"Google sent no refresh token"))?;
    let config = NewEmailConfig {
        provider: Provider::Gmail,
        send_from: address.clone(),
        send_from_name: flow.sender_name.unwrap_or_else(|| address.clone()),
        reply_to: flow.reply_to,
        secret: Some(encrypt_secret(
            &state.ctx.settings.security.secret_key,
            refresh.secret(),
        )),
        daily_cap: if is_consumer_gmail(&address) {
            GMAIL_DAILY_CAP
        } else {
            WORKSPACE_DAILY_CAP
        },
        // Google signs consumer Gmail itself; a Workspace domain's records are checked by verify-email-config.
        is_verified: is_consumer_gmail(&address),
        ..NewEmailConfig::default()
    };
    let db = &state.ctx.db;
    let saved = async {
        if !db
            .sending()
            .reconnect_gmail_config(user.id, &config, now)
            .await?
        {
            db.sending()
                .insert_email_config(user.id, &config, now)
                .await?;
        }
        Ok::<_, outreach_core::platform::db::StoreError>(())
    };
    saved.await.map_err(|error| failed("save", &error))?;
    // Reading starts with the mailbox as it is now; without the history id the first read takes the last day.
    let history = if read {
        let gmail = Gmail::of(&state.ctx.settings.google, Secret::new(refresh.secret()));
        let mut access = Some(Secret::new(token.access_token().secret()));
        gmail.history_id(&mut access).await.ok()
    } else {
        None
    };
    db.inbound()
        .set_gmail_access(user.id, &address, read, history.as_deref())
        .await
        .map_err(|error| failed("save", &error))?;
    // Asked to read but the box was unticked: sending still works, and the result page says what was declined.
    if flow.gmail_read && !read {
        return Err("access_denied");
    }
    Ok(address)
}
