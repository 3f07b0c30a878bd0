//! Setting a sender up (`POST /api/user/email-config`): an SMTP server (checked by connecting and signing in before
//! it is saved), a branded SendGrid key (its Mail Send scope checked), the local outbox, or a Gmail address (sent to
//! Google's consent screen first).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::platform::net::Security;
use outreach_core::platform::security::encrypt_secret;
use outreach_core::sending::mail_apis::SendGrid;
use outreach_core::sending::senders::{NewEmailConfig, Provider};
use outreach_core::sending::smtp::SmtpServer;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::senders::configs::{SavedSender, sender_view};
use crate::senders::gmail;
use crate::senders::request::{DEFAULT_DAILY_CAP, LimitsRequest, reply_to_address, text};
use crate::session::{SignedIn, with_cookie};
use outreach_core::sending::senders::Ramp;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct EmailConfigRequest {
    email_provider: String,
    email_send_from: String,
    email_send_from_name: String,
    email_reply_to: Option<String>,
    smtp_host: Option<String>,
    smtp_port: Option<i32>,
    smtp_security: Option<String>,
    smtp_username: Option<String>,
    smtp_password: Option<String>,
    imap_host: Option<String>,
    imap_port: Option<i32>,
    imap_security: Option<String>,
    imap_username: Option<String>,
    imap_password: Option<String>,
    /// Its daily cap and ramp-up (a new sender warms up unless `rampUp` is false).
    #[serde(flatten)]
    limits: LimitsRequest,
    sendgrid_api_key: Option<String>,
    custom_domain: Option<String>,
    business_name: Option<String>,
}

/// A Gmail sender waits for Google's consent: the browser goes to `oauthUrl`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentNeeded {
    pub success: bool,
    pub requires_o_auth: bool,
    pub oauth_url: String,
}

/// A sender set up: saved, or (Gmail) waiting for Google's consent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum SenderSetup {
    Saved(Box<SavedSender>),
    Consent(ConsentNeeded),
}

/// Sets a sender up: `smtp` (checked by connecting and signing in before it is saved), `sendgrid` (the key's Mail
/// Send scope checked), `outbox`, or `gmail` (Google's consent first).
#[utoipa::path(post, path = "/api/user/email-config", tag = "senders", request_body = EmailConfigRequest, responses(
    (status = 200, description = "Saved; for Gmail, the consent URL to go to", body = SenderSetup),
    (status = 422, description = "A field is missing or invalid, or the server or key was refused (the reason)", body = ErrorBody)))]
pub async fn save_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<EmailConfigRequest>,
) -> ApiResult<Response> {
    let key_for_secrets = &state.ctx.settings.security.secret_key;
    let provider = match request.email_provider.trim() {
        "" => return Err(ApiError::validation("Email provider is required")),
        // The form's name for the branded tier (A §4 level 3).
        "sendgrid" => Provider::SendGridCustom,
        other => match other.parse() {
            Ok(provider) if provider != Provider::SendGridBasic => provider,
            _ => {
                return Err(ApiError::validation(
                    "Email provider must be gmail, sendgrid, smtp or outbox",
                ));
            }
        },
    };
    let name = request.email_send_from_name.trim().to_string();
    let from = normalize_email(&request.email_send_from);
    let reply_to = reply_to_address(&request.email_reply_to)?;
    let (daily_cap, ramp) = request.limits.apply(DEFAULT_DAILY_CAP, Ramp::DEFAULT)?;
    let config = match provider {
        // Level 1: nothing is saved until Google answers; the browser goes to the consent screen (A §7).
        Provider::Gmail => {
            let address = if from.is_empty() {
                user.email.clone()
            } else {
                from
            };
            if !is_valid_email(&address) {
                return Err(ApiError::validation("Please enter a valid email address"));
            }
            let identity = gmail::Identity::of(&user, address, Some(name), reply_to);
            let consent = gmail::consent_url(&state, &user, &identity, false).await?;
            return Ok(with_cookie(
                consent.cookie,
                Json(SenderSetup::Consent(ConsentNeeded {
                    success: true,
                    requires_o_auth: true,
                    oauth_url: consent.url,
                })),
            ));
        }
        Provider::Outbox => NewEmailConfig {
            provider,
            send_from: if is_valid_email(&from) {
                from
            } else {
                format!("outbox@{}", state.ctx.settings.sending_domain())
            },
            send_from_name: if name.is_empty() {
                user.email.clone()
            } else {
                name
            },
            reply_to: reply_to.or_else(|| Some(user.email.clone())),
            daily_cap,
            // Nothing leaves the machine: there is no mailbox to warm up.
            ramp: Ramp::OFF,
            is_verified: true,
            ..NewEmailConfig::default()
        },
        Provider::Smtp => {
            if !is_valid_email(&from) {
                return Err(ApiError::validation("Please enter a valid email address"));
            }
            if name.is_empty() {
                return Err(ApiError::validation("Sender name is required"));
            }
            let host = text(&request.smtp_host)
                .ok_or_else(|| ApiError::validation("SMTP host is required"))?;
            let port = request.smtp_port.unwrap_or(587);
            if !(1..=65535).contains(&port) {
                return Err(ApiError::validation(
                    "SMTP port must be between 1 and 65535",
                ));
            }
            let security: Security = text(&request.smtp_security)
                .map(|security| security.parse())
                .transpose()
                .map_err(|_| ApiError::validation("SMTP security must be none, starttls or tls"))?
                .unwrap_or_default();
            let imap_security: Option<Security> = text(&request.imap_security)
                .map(|security| security.parse())
                .transpose()
                .map_err(|_| ApiError::validation("IMAP security must be none, starttls or tls"))?;
            let imap_host = text(&request.imap_host);
            let imap_port = request.imap_port.unwrap_or(993);
            let imap_security = imap_host
                .as_ref()
                .map(|_| imap_security.unwrap_or(Security::Tls));
            let imap_username = imap_host.as_ref().map(|_| {
                text(&request.imap_username)
                    .or_else(|| text(&request.smtp_username))
                    .unwrap_or_else(|| from.clone())
            });
            let imap_password = text(&request.imap_password);
            let imap_start = match &imap_host {
                None => None,
                Some(host) => {
                    if !(1..=65535).contains(&imap_port) {
                        return Err(ApiError::validation(
                            "IMAP port must be between 1 and 65535",
                        ));
                    }
                    let password = imap_password
                        .clone()
                        .ok_or_else(|| ApiError::validation("IMAP password is required"))?;
                    let mailbox = outreach_core::inbound::imap::ImapServer {
                        host: host.clone(),
                        port: imap_port as u16,
                        security: imap_security.unwrap_or(Security::Tls),
                        username: imap_username.clone().unwrap_or_default(),
                        password: outreach_core::platform::config::Secret::new(password),
                        policy: state.ctx.settings.sending.policy(),
                        timeout: state.ctx.settings.sending.timeout(),
                    };
                    // Replies are read from here every few minutes: a wrong login is told now.
                    Some(mailbox.check().await.map_err(|error| {
                        ApiError::new(
                            StatusCode::UNPROCESSABLE_ENTITY,
                            "imap_check_failed",
                            format!("The IMAP server check failed: {error}"),
                        )
                    })?)
                }
            };
            let password = text(&request.smtp_password);
            let server = SmtpServer {
                host: host.clone(),
                port: port as u16,
                security,
                username: text(&request.smtp_username),
                password: password
                    .clone()
                    .map(outreach_core::platform::config::Secret::new),
                policy: state.ctx.settings.sending.policy(),
                timeout: state.ctx.settings.sending.timeout(),
            };
            // The user hears the server's own answer now, not at the first campaign.
            server.check().await.map_err(|error| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "smtp_check_failed",
                    format!("The SMTP server check failed: {error}"),
                )
            })?;
            NewEmailConfig {
                provider,
                send_from: from,
                send_from_name: name,
                reply_to,
                smtp_host: Some(host),
                smtp_port: Some(port),
                smtp_security: Some(security),
                smtp_username: text(&request.smtp_username),
                secret: password.map(|password| encrypt_secret(key_for_secrets, &password)),
                imap_port: imap_host.as_ref().map(|_| imap_port),
                imap_host,
                imap_security,
                imap_username,
                imap_secret: imap_password
                    .map(|password| encrypt_secret(key_for_secrets, &password)),
                imap_start,
                daily_cap,
                ramp,
                // Not checked yet: verify-email-config reads its domain's SPF, DKIM and DMARC.
                is_verified: false,
                status_message: None,
            }
        }
        // Level 3, branded SendGrid: the user's own key, checked for Mail Send before it is stored.
        Provider::SendGridCustom | Provider::SendGridBasic => {
            if !is_valid_email(&from) {
                return Err(ApiError::validation("Please enter a valid email address"));
            }
            let key = text(&request.sendgrid_api_key)
                .ok_or_else(|| ApiError::validation("SendGrid API key is required"))?;
            let sendgrid = SendGrid {
                api_url: state.ctx.settings.sendgrid.api_url.clone(),
                api_key: outreach_core::platform::config::Secret::new(key.clone()),
            };
            sendgrid.check_key().await.map_err(|error| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "sendgrid_key_refused",
                    error.to_string(),
                )
            })?;
            let name = text(&request.business_name).unwrap_or(name);
            if name.is_empty() {
                return Err(ApiError::validation("Sender name is required"));
            }
            NewEmailConfig {
                provider: Provider::SendGridCustom,
                send_from: from,
                send_from_name: name,
                reply_to,
                secret: Some(encrypt_secret(key_for_secrets, &key)),
                daily_cap,
                ramp,
                // Sending works now; the domain's SPF, DKIM and DMARC are checked by verify-email-config.
                is_verified: false,
                status_message: text(&request.custom_domain)
                    .map(|domain| format!("Custom domain {domain}")),
                ..NewEmailConfig::default()
            }
        }
    };
    let id = state
        .ctx
        .db
        .sending()
        .insert_email_config(user.id, &config, state.ctx.now_ms())
        .await?;
    let saved = state
        .ctx
        .db
        .sending()
        .find_email_config(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email configuration not found"))?;
    Ok(Json(SenderSetup::Saved(Box::new(SavedSender {
        success: true,
        config: sender_view(&state, &saved).await?,
    })))
    .into_response())
}
