//! Sending (A §7 Campaigns send/launch, Email setup): sender configurations (Gmail through Google's consent, SMTP
//! with a connection check on save, branded SendGrid with the key's Mail Send scope checked, basic SendGrid
//! addresses, the local outbox by default), launching a campaign (one queued message row per recipient, written before any
//! `SendCampaignEmail` job is enqueued), its live progress, and the outbox view.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::jobs::SendCampaignEmail;
use outreach_core::mail_apis::SendGrid;
use outreach_core::outbound::{EmailConfig, NewEmailConfig, NewMessage};
use outreach_core::security::{encrypt_secret, random_token};
use outreach_core::transport::SmtpServer;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::{SignedIn, with_cookie};
use crate::{AppState, gmail};

/// A sender's daily cap unless the user sets one.
const DEFAULT_DAILY_CAP: i32 = 500;

#[derive(Debug, Default, Deserialize)]
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
    daily_cap: Option<i32>,
    sendgrid_api_key: Option<String>,
    custom_domain: Option<String>,
    business_name: Option<String>,
}

fn text(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .map(str::to_string)
}

/// An optional reply-to address, normalised; a present but malformed one is refused.
pub fn reply_to_address(value: &Option<String>) -> ApiResult<Option<String>> {
    let reply_to = text(value).map(|reply| normalize_email(&reply));
    if reply_to
        .as_deref()
        .is_some_and(|reply| !is_valid_email(reply))
    {
        return Err(ApiError::validation(
            "Please enter a valid reply-to address",
        ));
    }
    Ok(reply_to)
}

/// `POST /api/user/email-config`: an SMTP sender (checked by connecting and signing in before it is saved) or the
/// local outbox.
pub async fn save_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<EmailConfigRequest>,
) -> ApiResult<Response> {
    let key_for_secrets = &state.ctx.settings.security.secret_key;
    let provider = request.email_provider.trim().to_string();
    let name = request.email_send_from_name.trim().to_string();
    let from = normalize_email(&request.email_send_from);
    let reply_to = reply_to_address(&request.email_reply_to)?;
    let daily_cap = request.daily_cap.unwrap_or(DEFAULT_DAILY_CAP);
    if !(1..=100_000).contains(&daily_cap) {
        return Err(ApiError::validation(
            "Daily cap must be between 1 and 100000",
        ));
    }
    // Level 1: nothing is saved until Google answers; the browser goes to the consent screen (A §7).
    if provider == "gmail" {
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
            Json(json!({ "success": true, "requiresOAuth": true, "oauthUrl": consent.url })),
        ));
    }
    let config = match provider.as_str() {
        "outbox" => NewEmailConfig {
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
            is_verified: true,
            ..NewEmailConfig::default()
        },
        "smtp" => {
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
            let security = text(&request.smtp_security).unwrap_or_else(|| "starttls".into());
            if !["none", "starttls", "tls"].contains(&security.as_str()) {
                return Err(ApiError::validation(
                    "SMTP security must be none, starttls or tls",
                ));
            }
            let imap_security = text(&request.imap_security);
            if imap_security
                .as_deref()
                .is_some_and(|security| !["none", "starttls", "tls"].contains(&security))
            {
                return Err(ApiError::validation(
                    "IMAP security must be none, starttls or tls",
                ));
            }
            let imap_host = text(&request.imap_host);
            let imap_port = request.imap_port.unwrap_or(993);
            let imap_security = imap_host
                .as_ref()
                .map(|_| imap_security.unwrap_or_else(|| "tls".into()));
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
                    let mailbox = outreach_core::imap::ImapServer {
                        host: host.clone(),
                        port: imap_port as u16,
                        security: imap_security.clone().unwrap_or_default(),
                        username: imap_username.clone().unwrap_or_default(),
                        password: outreach_core::config::Secret::new(password),
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
                security: security.clone(),
                username: text(&request.smtp_username),
                password: password.clone().map(outreach_core::config::Secret::new),
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
                is_verified: true,
                status_message: None,
            }
        }
        // Level 3, branded SendGrid: the user's own key, checked for Mail Send before it is stored.
        "sendgrid" | "sendgrid-custom" => {
            if !is_valid_email(&from) {
                return Err(ApiError::validation("Please enter a valid email address"));
            }
            let key = text(&request.sendgrid_api_key)
                .ok_or_else(|| ApiError::validation("SendGrid API key is required"))?;
            let sendgrid = SendGrid {
                api_url: state.ctx.settings.sendgrid.api_url.clone(),
                api_key: outreach_core::config::Secret::new(key.clone()),
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
                provider: "sendgrid-custom".into(),
                send_from: from,
                send_from_name: name,
                reply_to,
                secret: Some(encrypt_secret(key_for_secrets, &key)),
                daily_cap,
                // Sending works now; the domain's SPF, DKIM and DMARC are checked by verify-email-config.
                is_verified: false,
                status_message: text(&request.custom_domain)
                    .map(|domain| format!("Custom domain {domain}")),
                ..NewEmailConfig::default()
            }
        }
        "" => return Err(ApiError::validation("Email provider is required")),
        _ => {
            return Err(ApiError::validation(
                "Email provider must be gmail, sendgrid, smtp or outbox",
            ));
        }
    };
    let id = state
        .ctx
        .db
        .insert_email_config(user.id, &config, state.ctx.now_ms())
        .await?;
    let saved = state
        .ctx
        .db
        .find_email_config(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email configuration not found"))?;
    Ok(Json(json!({ "success": true, "config": saved.view() })).into_response())
}

/// `GET /api/user/email-configs`.
pub async fn list_configs(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let configs = state.ctx.db.list_email_configs(user.id).await?;
    Ok(Json(json!(
        configs.iter().map(EmailConfig::view).collect::<Vec<_>>()
    )))
}

/// `GET /api/user/email-config`: the default sender's status (A §3 Email configuration status); without one,
/// the local outbox.
pub async fn config_status(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let configs = state.ctx.db.list_email_configs(user.id).await?;
    let default = configs
        .iter()
        .find(|config| config.is_default && config.is_active);
    Ok(Json(match default {
        Some(config) => json!({
            "emailConfigured": true,
            "tier": tier(&config.provider),
            "emailSendFrom": config.send_from,
            "emailSendFromName": config.send_from_name,
            "emailReplyTo": config.reply_to,
            "emailProvider": config.provider,
            "useOAuth": config.provider == "gmail",
        }),
        None => json!({
            "emailConfigured": false,
            "tier": null,
            "emailSendFrom": format!("outbox@{}", state.ctx.settings.sending_domain()),
            "emailSendFromName": user.email,
            "emailReplyTo": user.email,
            "emailProvider": "outbox",
            "useOAuth": false,
        }),
    }))
}

/// A §4 Email tiers: basic (Gmail), intermediate (basic SendGrid), advanced (branded SendGrid); SMTP and the
/// outbox are tiers of their own.
fn tier(provider: &str) -> &str {
    match provider {
        "gmail" => "basic",
        "sendgrid-basic" => "intermediate",
        "sendgrid-custom" => "advanced",
        other => other,
    }
}

/// `PUT /api/user/email-configs/{id}/set-default`.
pub async fn set_default(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    owned_config(&state, id, user.id).await?;
    state
        .ctx
        .db
        .set_default_email_config(user.id, id, state.ctx.now_ms())
        .await?;
    Ok(Json(json!({ "success": true })))
}

/// `DELETE /api/user/email-configs/{id}`.
pub async fn delete_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    owned_config(&state, id, user.id).await?;
    if !state.ctx.db.delete_email_config(user.id, id).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "sender_in_use",
            "This sender still has emails waiting to be sent. Let those campaigns finish before removing it.",
        ));
    }
    Ok(Json(json!({ "success": true })))
}

async fn owned_config(state: &AppState, id: i64, user_id: i64) -> ApiResult<EmailConfig> {
    state
        .ctx
        .db
        .find_email_config(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email configuration not found"))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LaunchRequest {
    campaign_id: Option<i64>,
    template_id: Option<i64>,
    business_ids: Vec<i64>,
    /// The sender configuration to use; the default one (else the outbox) when absent.
    email_config_id: Option<i64>,
}

/// `POST /api/campaigns/send` and `POST /api/campaigns/launch`: queues one message per business of the campaign
/// (businesses without an address are recorded as skipped), then enqueues the sending jobs.
pub async fn launch(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<LaunchRequest>,
) -> ApiResult<Json<Value>> {
    let db = &state.ctx.db;
    let template_id = request
        .template_id
        .ok_or_else(|| ApiError::validation("Template Required"))?;
    if request.business_ids.is_empty() {
        return Err(ApiError::validation("No Recipients"));
    }
    let campaign_id = request
        .campaign_id
        .ok_or_else(|| ApiError::validation("Campaign Required"))?;
    db.find_campaign(campaign_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    db.template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    let config = match request.email_config_id {
        Some(id) => Some(owned_config(&state, id, user.id).await?),
        None => db
            .list_email_configs(user.id)
            .await?
            .into_iter()
            .find(|config| config.is_default && config.is_active),
    };
    if config.as_ref().is_some_and(|config| !config.is_active) {
        return Err(ApiError::validation(
            "This sender is not active; choose another one",
        ));
    }
    // A business named twice is sent one email; all are read in one query, and any not the user's is refused.
    let ids = outreach_core::limits::distinct(&request.business_ids);
    let businesses = db.find_businesses(&ids, user.id).await?;
    if businesses.len() != ids.len() {
        return Err(ApiError::not_found("Business not found"));
    }
    let tokens: Vec<String> = businesses.iter().map(|_| random_token(16)).collect();
    let addresses: Vec<Option<String>> = businesses
        .iter()
        .map(|business| {
            business
                .email
                .as_deref()
                .map(normalize_email)
                .filter(|email| is_valid_email(email))
        })
        .collect();
    let messages: Vec<NewMessage> = businesses
        .iter()
        .zip(&addresses)
        .zip(&tokens)
        .map(|((business, address), token)| NewMessage {
            user_id: user.id,
            to_email: address.as_deref().unwrap_or(""),
            status: if address.is_some() {
                "queued"
            } else {
                "skipped"
            },
            campaign_id: Some(campaign_id),
            template_id: Some(template_id),
            business_id: Some(business.id),
            step: 0,
            config_id: config.as_ref().map(|config| config.id),
            token,
            error: address.is_none().then_some("No email address"),
            is_test: false,
            subject: "",
            html_body: None,
        })
        .collect();
    let now = state.ctx.now_ms();
    db.enqueue_messages(&messages, now).await?;
    db.set_campaign_status(campaign_id, "active", None, now)
        .await?;
    // Enqueued after the rows are committed; a job only ever sends rows that are still queued.
    let queued = db.queued_message_ids(campaign_id).await?;
    for batch in queued.chunks(SendCampaignEmail::BATCH) {
        let key = format!("send:{campaign_id}:{}", batch[0]);
        state
            .ctx
            .queue
            .enqueue(
                SendCampaignEmail {
                    campaign_id: Some(campaign_id),
                    message_ids: batch.to_vec(),
                },
                Some(&key),
            )
            .await
            .map_err(ApiError::internal)?;
    }
    let skipped = addresses.iter().filter(|address| address.is_none()).count();
    db.complete_campaign_if_done(campaign_id, now).await?;
    Ok(Json(json!({
        "success": true,
        "emailsSent": queued.len(),
        "skipped": skipped,
        "message": format!(
            "{} emails are being sent{}. You can launch another campaign anytime.",
            queued.len(),
            if skipped > 0 { format!(" ({skipped} businesses without an email address skipped)") } else { String::new() }
        ),
    })))
}

/// `GET /api/campaigns/{id}/progress`: queued, sending, sent, failed and skipped counts, the status and why it
/// paused.
pub async fn progress(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Value>> {
    let campaign = state
        .ctx
        .db
        .find_campaign(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let progress = state.ctx.db.campaign_progress(id).await?;
    let reason = state.ctx.db.campaign_status_reason(id).await?;
    Ok(Json(json!({
        "campaignId": id,
        "status": campaign.status,
        "statusReason": reason,
        "progress": progress,
    })))
}

/// `GET /api/outbox`: what the local outbox kept (nothing left the machine).
pub async fn outbox(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let messages = state.ctx.db.outbox(user.id, 200).await?;
    Ok(Json(json!(messages)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TestSendRequest {
    /// `send-test-email` names the recipient `to`; the other test forms `testEmail`.
    to: Option<String>,
    test_email: Option<String>,
    subject: Option<String>,
    body: Option<String>,
    template_id: Option<i64>,
    quantity: Option<i64>,
    business_ids: Vec<i64>,
}

/// One test message: a template (personalised for a business when given) or a subject and body of its own.
struct TestMessage {
    template_id: Option<i64>,
    business_id: Option<i64>,
    subject: String,
    body: Option<String>,
}

impl TestSendRequest {
    fn recipient(&self) -> ApiResult<String> {
        let to = self
            .to
            .as_deref()
            .or(self.test_email.as_deref())
            .map(normalize_email)
            .unwrap_or_default();
        if is_valid_email(&to) {
            Ok(to)
        } else {
            Err(ApiError::validation("Please enter a valid email address"))
        }
    }

    /// The template (one of `user_id`'s: another user's, or none, is 404), or the custom subject and body (A §5
    /// Standalone test-email form).
    async fn content(
        &self,
        state: &AppState,
        user_id: i64,
    ) -> ApiResult<(Option<i64>, String, Option<String>)> {
        if let Some(template_id) = self.template_id {
            state
                .ctx
                .db
                .template_content(template_id, user_id)
                .await?
                .ok_or_else(|| ApiError::not_found("Template not found"))?;
            return Ok((Some(template_id), String::new(), None));
        }
        match (text(&self.subject), text(&self.body)) {
            (Some(subject), Some(body)) => Ok((
                None,
                subject,
                Some(outreach_core::templates::sanitize_html(&body)),
            )),
            _ => Err(ApiError::validation(
                "Missing Content: Please select a template or enter custom subject and body.",
            )),
        }
    }
}

/// `POST /api/campaigns/send-test-email {to, subject, body}`: one email now, through the default sender.
pub async fn send_test_email(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<Value>> {
    let to = request.recipient()?;
    let (template_id, subject, body) = request.content(&state, user.id).await?;
    let outcome = send_tests(
        &state,
        &user,
        default_sender(&state, user.id).await?,
        &to,
        vec![TestMessage {
            template_id,
            business_id: None,
            subject,
            body,
        }],
    )
    .await?;
    Ok(Json(outcome.answer(&to)))
}

/// `POST /api/campaigns/test {testEmail, quantity, templateId}`: 1 to 10 copies (default 3) to one address.
pub async fn test_copies(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<Value>> {
    let to = request.recipient()?;
    let quantity = request.quantity.unwrap_or(3);
    if !(1..=10).contains(&quantity) {
        return Err(ApiError::validation("Quantity must be between 1 and 10"));
    }
    let (template_id, subject, body) = request.content(&state, user.id).await?;
    let messages = (0..quantity)
        .map(|_| TestMessage {
            template_id,
            business_id: None,
            subject: subject.clone(),
            body: body.clone(),
        })
        .collect();
    let outcome = send_tests(
        &state,
        &user,
        default_sender(&state, user.id).await?,
        &to,
        messages,
    )
    .await?;
    let mut answer = outcome.answer(&to);
    answer["sent"] = json!(outcome.sent);
    Ok(Json(answer))
}

/// `POST /api/test-campaign {testEmail, businessIds, templateId}`: the campaign's email as each of up to five
/// businesses would get it, to the test address.
pub async fn test_campaign(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<Value>> {
    let to = request.recipient()?;
    if request.business_ids.is_empty() {
        return Err(ApiError::validation(
            "Please select at least one business for testing.",
        ));
    }
    if request.business_ids.len() > 5 {
        return Err(ApiError::validation(
            "Please select a maximum of 5 businesses for testing.",
        ));
    }
    let template_id = request
        .template_id
        .ok_or_else(|| ApiError::validation("Template Required"))?;
    state
        .ctx
        .db
        .template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    for id in &request.business_ids {
        state
            .ctx
            .db
            .find_business(*id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Business not found"))?;
    }
    let sender = default_sender(&state, user.id).await?;
    // A Gmail sender whose grant is gone: the user meant to test through Gmail, not the outbox.
    if sender.is_none()
        && let Some(revoked) = state
            .ctx
            .db
            .list_email_configs(user.id)
            .await?
            .into_iter()
            .find(|config| config.provider == "gmail" && !config.is_active)
    {
        return Ok(Json(json!({
            "success": false,
            "errorType": "gmail_oauth_not_configured",
            "message": format!("Gmail access for {} was revoked or has expired", revoked.send_from),
            "troubleshooting": "Open Email Settings, Level 1 Gmail, and connect this address again, or make another sender the default.",
        })));
    }
    let messages = request
        .business_ids
        .iter()
        .map(|id| TestMessage {
            template_id: Some(template_id),
            business_id: Some(*id),
            subject: String::new(),
            body: None,
        })
        .collect();
    let outcome = send_tests(&state, &user, sender, &to, messages).await?;
    Ok(Json(outcome.answer(&to)))
}

/// What happened to a set of test messages.
struct TestOutcome {
    sent: usize,
    waiting: usize,
    errors: Vec<String>,
    provider: String,
}

impl TestOutcome {
    fn answer(&self, to: &str) -> Value {
        if let Some(error) = self.errors.first() {
            return json!({
                "success": false,
                "sent": self.sent,
                "message": format!("Test email failed: {error}"),
                "errorType": "send_failed",
                "troubleshooting": "Check the sender in Email Settings: its server, password or key, and that it is active.",
            });
        }
        let place = if self.provider == "outbox" {
            " (kept in the local outbox)"
        } else {
            ""
        };
        let message = if self.waiting > 0 {
            format!(
                "{} test emails sent to {to}{place}; {} still sending",
                self.sent, self.waiting
            )
        } else {
            format!("{} test emails sent to {to}{place}", self.sent)
        };
        json!({ "success": true, "sent": self.sent, "message": message })
    }
}

/// The user's default active sender; None means the local outbox.
async fn default_sender(state: &AppState, user_id: i64) -> ApiResult<Option<EmailConfig>> {
    Ok(state
        .ctx
        .db
        .list_email_configs(user_id)
        .await?
        .into_iter()
        .find(|config| config.is_default && config.is_active))
}

/// Queues test messages through `config` (None: the outbox), then waits for their outcome.
async fn send_tests(
    state: &AppState,
    user: &outreach_core::accounts::User,
    config: Option<EmailConfig>,
    to: &str,
    items: Vec<TestMessage>,
) -> ApiResult<TestOutcome> {
    let db = &state.ctx.db;
    let tokens: Vec<String> = items.iter().map(|_| random_token(16)).collect();
    let messages: Vec<NewMessage> = items
        .iter()
        .zip(&tokens)
        .enumerate()
        .map(|(index, (item, token))| NewMessage {
            user_id: user.id,
            to_email: to,
            status: "queued",
            campaign_id: None,
            template_id: item.template_id,
            business_id: item.business_id,
            step: index as i32,
            config_id: config.as_ref().map(|config| config.id),
            token,
            error: None,
            is_test: true,
            subject: &item.subject,
            html_body: item.body.as_deref(),
        })
        .collect();
    let ids = db.enqueue_messages(&messages, state.ctx.now_ms()).await?;
    state
        .ctx
        .queue
        .enqueue(
            SendCampaignEmail {
                campaign_id: None,
                message_ids: ids.clone(),
            },
            None,
        )
        .await
        .map_err(ApiError::internal)?;
    let load = || async {
        let mut rows = Vec::new();
        for id in &ids {
            rows.extend(db.load_message(*id).await?);
        }
        Ok::<_, ApiError>(rows)
    };
    let rows = crate::wait_for(std::time::Duration::from_secs(20), load, |rows| {
        rows.iter()
            .all(|row| !matches!(row.status.as_str(), "queued" | "sending"))
    })
    .await?;
    let errors = db.message_errors(&ids).await?;
    Ok(TestOutcome {
        sent: rows.iter().filter(|row| row.status == "sent").count(),
        waiting: rows
            .iter()
            .filter(|row| matches!(row.status.as_str(), "queued" | "sending"))
            .count(),
        errors,
        provider: config.map_or_else(|| "outbox".to_string(), |config| config.provider),
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileRequest {
    postal_address: Option<String>,
}

/// `GET /api/user/profile`: the sender details every email carries (the postal address of the footer).
pub async fn profile(SignedIn(user): SignedIn) -> Json<Value> {
    Json(json!({
        "email": user.email,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "postalAddress": user.postal_address,
    }))
}

/// `PUT /api/user/profile {postalAddress}`: the postal address in every email's footer (CAN-SPAM asks for one).
pub async fn save_profile(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<ProfileRequest>,
) -> ApiResult<Json<Value>> {
    let address = request
        .postal_address
        .unwrap_or_default()
        .trim()
        .to_string();
    if address.chars().count() > 500 {
        return Err(ApiError::validation(
            "Postal address must be at most 500 characters",
        ));
    }
    state
        .ctx
        .db
        .set_postal_address(user.id, &address, state.ctx.now_ms())
        .await?;
    Ok(Json(json!({ "success": true, "postalAddress": address })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BasicAddressRequest {
    username: Option<String>,
    email_prefix: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    reply_to: Option<String>,
}

/// The address a username gets on the instance's sending domain.
fn basic_address(state: &AppState, username: &str) -> String {
    format!(
        "{}@{}",
        username.to_lowercase(),
        state.ctx.settings.sending_domain()
    )
}

/// `POST /api/user/check-username {username}`: `{available, reason}` (A §4 Username availability).
pub async fn check_username(
    State(state): State<AppState>,
    SignedIn(_user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<Value>> {
    let username = text(&request.username)
        .or(text(&request.email_prefix))
        .unwrap_or_default();
    if !outreach_core::outbound::valid_username(&username) {
        return Ok(Json(
            json!({ "available": false, "reason": outreach_core::outbound::USERNAME_RULE }),
        ));
    }
    let taken = state
        .ctx
        .db
        .email_address_taken(&basic_address(&state, &username))
        .await?;
    Ok(Json(if taken {
        json!({ "available": false, "reason": "This username is already taken" })
    } else {
        json!({ "available": true, "reason": null })
    }))
}

/// `GET /api/user/suggest-username`: a free username from the user's name (else the login address).
pub async fn suggest_username(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let name = [user.first_name.as_deref(), user.last_name.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let base = if name.trim().is_empty() {
        outreach_core::outbound::username_from(user.email.split('@').next().unwrap_or("sender"))
    } else {
        outreach_core::outbound::username_from(&name)
    };
    for attempt in 1..100 {
        let candidate = if attempt == 1 {
            base.clone()
        } else {
            format!("{}{attempt}", &base[..base.len().min(27)])
        };
        if !state
            .ctx
            .db
            .email_address_taken(&basic_address(&state, &candidate))
            .await?
        {
            return Ok(Json(
                json!({ "username": candidate, "emailAddress": basic_address(&state, &candidate) }),
            ));
        }
    }
    Err(ApiError::validation(
        "No free username was found; choose one",
    ))
}

/// `POST /api/sendgrid/create-basic-address {firstName, lastName, emailPrefix, replyTo}`: a Level 2 sender,
/// `prefix@<sending domain>`, sent through the operator's SendGrid key.
pub async fn create_basic_address(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<Value>> {
    let (Some(first), Some(last), Some(prefix)) = (
        text(&request.first_name),
        text(&request.last_name),
        text(&request.email_prefix),
    ) else {
        return Err(ApiError::validation(
            "First name, last name and email username are required",
        ));
    };
    if !outreach_core::outbound::valid_username(&prefix) {
        return Err(ApiError::validation(outreach_core::outbound::USERNAME_RULE));
    }
    if state.ctx.settings.sendgrid.api_key.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "provider_unavailable",
            "Basic addresses are sent through the operator's SendGrid account, which this instance does not have",
        ));
    }
    let address = basic_address(&state, &prefix);
    if state.ctx.db.email_address_taken(&address).await? {
        return Err(ApiError::validation("This username is already taken"));
    }
    let reply_to = reply_to_address(&request.reply_to)?.unwrap_or_else(|| user.email.clone());
    let config = NewEmailConfig {
        provider: "sendgrid-basic".into(),
        send_from: address.clone(),
        send_from_name: format!("{first} {last}"),
        reply_to: Some(reply_to),
        daily_cap: DEFAULT_DAILY_CAP,
        is_verified: true,
        ..NewEmailConfig::default()
    };
    let id = state
        .ctx
        .db
        .insert_email_config(user.id, &config, state.ctx.now_ms())
        .await?;
    Ok(Json(
        json!({ "success": true, "id": id, "emailAddress": address, "message": format!("{address} is ready to send") }),
    ))
}

/// `POST /api/sendgrid/send-test {emailPrefix}`: a test email from the user's basic address to their login address,
/// through the operator's SendGrid account. Answers `{success, fromEmail, message}`.
pub async fn send_basic_test(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<Value>> {
    let prefix = text(&request.email_prefix).unwrap_or_default();
    let address = basic_address(&state, &prefix);
    let config = state
        .ctx
        .db
        .list_email_configs(user.id)
        .await?
        .into_iter()
        .find(|config| config.provider == "sendgrid-basic" && config.send_from == address)
        .ok_or_else(|| {
            ApiError::validation("Create the address first, then send a test email from it")
        })?;
    let test = TestMessage {
        template_id: None,
        business_id: None,
        subject: format!("Test email from {address}"),
        body: Some(format!(
            "<p>This test email was sent from your address {address}. If it reached you, the address works and \
             your campaigns can use it.</p>"
        )),
    };
    let outcome = send_tests(&state, &user, Some(config), &user.email, vec![test]).await?;
    let mut answer = outcome.answer(&user.email);
    answer["fromEmail"] = json!(address);
    Ok(Json(answer))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IdentityRequest {
    first_name: Option<String>,
    last_name: Option<String>,
    email_prefix: Option<String>,
    reply_to: Option<String>,
}

/// `PUT /api/user/email-configs/{id} {firstName, lastName, emailPrefix, replyTo}`: the sender's name and reply-to;
/// a basic address may also change its username.
pub async fn update_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<IdentityRequest>,
) -> ApiResult<Json<Value>> {
    let config = owned_config(&state, id, user.id).await?;
    let (Some(first), Some(last)) = (text(&request.first_name), text(&request.last_name)) else {
        return Err(ApiError::validation(
            "First name and last name are required",
        ));
    };
    let reply_to = reply_to_address(&request.reply_to)?;
    let mut address = config.send_from.clone();
    if config.provider == "sendgrid-basic"
        && let Some(prefix) = text(&request.email_prefix)
    {
        if !outreach_core::outbound::valid_username(&prefix) {
            return Err(ApiError::validation(outreach_core::outbound::USERNAME_RULE));
        }
        let wanted = basic_address(&state, &prefix);
        if wanted != address && state.ctx.db.email_address_taken(&wanted).await? {
            return Err(ApiError::validation("This username is already taken"));
        }
        address = wanted;
    }
    let name = format!("{first} {last}");
    state
        .ctx
        .db
        .update_email_identity(
            id,
            user.id,
            (&name, &address, reply_to.as_deref()),
            state.ctx.now_ms(),
        )
        .await?;
    let saved = owned_config(&state, id, user.id).await?;
    Ok(Json(json!({ "success": true, "config": saved.view() })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VerifyRequest {
    /// The configuration to check; the default sender when absent (the spec's call has no body).
    config_id: Option<i64>,
}

/// `POST /api/user/verify-email-config`: reads the sender domain's SPF, DKIM and DMARC records and answers
/// `{success, verified, domain, checks, missing, message}`; the sender keeps the outcome.
pub async fn verify_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    body: Option<Json<VerifyRequest>>,
) -> ApiResult<Json<Value>> {
    let config = match body.and_then(|Json(request)| request.config_id) {
        Some(id) => owned_config(&state, id, user.id).await?,
        None => default_sender(&state, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("There is no email configuration to verify"))?,
    };
    let domain = config.send_from.rsplit('@').next().unwrap_or_default();
    let report = match config.provider.as_str() {
        // Nothing leaves the machine, and Google signs consumer Gmail itself: nothing to publish.
        "outbox" => None,
        "gmail" if gmail::is_consumer_gmail(&config.send_from) => None,
        provider => Some(
            outreach_core::domain_auth::check_domain(
                &outreach_core::dns::DnsLookup::new(&state.ctx.settings.crawler),
                domain,
                provider,
            )
            .await,
        ),
    };
    let (verified, message) = match &report {
        Some(report) => (report.verified(), report.summary()),
        None => (true, format!("{} needs no DNS records", config.send_from)),
    };
    state
        .ctx
        .db
        .set_email_config_verified(config.id, verified, &message, state.ctx.now_ms())
        .await?;
    Ok(Json(json!({
        "success": verified,
        "verified": verified,
        "configId": config.id,
        "domain": domain,
        "checks": report.as_ref().map_or(json!([]), |report| json!(report.checks)),
        "missing": report.as_ref().map_or(json!([]), |report| json!(report.missing())),
        "message": message,
    })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OutboxReplyRequest {
    body: String,
}

/// `POST /api/outbox/{id}/reply {body}`: a reply typed in the app for a message the local outbox kept, as if its
/// recipient had answered, so the reply handling can be tried without a mailbox.
pub async fn outbox_reply(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<OutboxReplyRequest>,
) -> ApiResult<Json<Value>> {
    let body = request.body.trim();
    if body.is_empty() {
        return Err(ApiError::validation("Please type the reply"));
    }
    let message = state
        .ctx
        .db
        .find_outbox_sent(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Outbox message not found"))?;
    let subject = state
        .ctx
        .db
        .load_message(id)
        .await?
        .map(|row| format!("Re: {}", row.subject))
        .unwrap_or_default();
    let reply = outreach_core::inbound::Inbound {
        kind: outreach_core::inbound::Kind::Reply,
        from: Some(message.to_email.clone()),
        refers_to: Vec::new(),
        subject,
        text: body.to_string(),
    };
    state
        .ctx
        .db
        .record_inbound(
            user.id,
            Some(&message),
            &reply,
            "outbox",
            state.ctx.now_ms(),
        )
        .await?;
    Ok(Json(json!({ "success": true, "status": "replied" })))
}
