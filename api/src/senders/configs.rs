//! The user's senders (A §7 Email setup): the list, the default sender's status, choosing the default, renaming,
//! removing, and the domain check of SPF, DKIM and DMARC.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::sending::senders::{EmailConfig, Provider};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::senders::gmail;
use crate::senders::request::{basic_address, reply_to_address, text};
use crate::session::SignedIn;

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
            "tier": config.provider.tier(),
            "emailSendFrom": config.send_from,
            "emailSendFromName": config.send_from_name,
            "emailReplyTo": config.reply_to,
            "emailProvider": config.provider,
            "useOAuth": config.provider == Provider::Gmail,
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

pub(crate) async fn owned_config(
    state: &AppState,
    id: i64,
    user_id: i64,
) -> ApiResult<EmailConfig> {
    state
        .ctx
        .db
        .find_email_config(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email configuration not found"))
}

/// The user's default active sender; None means the local outbox.
pub(crate) async fn default_sender(
    state: &AppState,
    user_id: i64,
) -> ApiResult<Option<EmailConfig>> {
    Ok(state
        .ctx
        .db
        .list_email_configs(user_id)
        .await?
        .into_iter()
        .find(|config| config.is_default && config.is_active))
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
    if config.provider == Provider::SendGridBasic
        && let Some(prefix) = text(&request.email_prefix)
    {
        if !outreach_core::sending::senders::valid_username(&prefix) {
            return Err(ApiError::validation(
                outreach_core::sending::senders::USERNAME_RULE,
            ));
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
    let report = match config.provider {
        // Nothing leaves the machine, and Google signs consumer Gmail itself: nothing to publish.
        Provider::Outbox => None,
        Provider::Gmail if gmail::is_consumer_gmail(&config.send_from) => None,
        provider => Some(
            outreach_core::sending::domain_auth::check_domain(
                &outreach_core::platform::dns::DnsLookup::new(&state.ctx.settings.crawler),
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
