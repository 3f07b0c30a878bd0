//! The user's senders (A §7 Email setup): the list, the default sender's status, choosing the default, renaming,
//! removing, and the domain check of SPF, DKIM and DMARC.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::sending::domain_auth::{Check, needs_no_records};
use outreach_core::sending::senders::{EmailConfig, EmailConfigView, Provider};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{DONE, ErrorBody, Success};
use crate::senders::request::{LimitsRequest, basic_address, reply_to_address, text};
use crate::session::SignedIn;
use outreach_core::sending::health::{self, PutBackError};

/// The user's senders.
#[utoipa::path(get, path = "/api/user/email-configs", tag = "senders", responses((status = 200, body = Vec<EmailConfigView>)))]
pub async fn list_configs(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<EmailConfigView>>> {
    let configs = state.ctx.db.sending().list_email_configs(user.id).await?;
    Ok(Json(
        state
            .ctx
            .db
            .sending()
            .sender_views(&configs, state.ctx.now_ms())
            .await?,
    ))
}

/// A sender as the API lists it, with its use of today.
pub(crate) async fn sender_view(
    state: &AppState,
    config: &EmailConfig,
) -> ApiResult<EmailConfigView> {
    let mut views = state
        .ctx
        .db
        .sending()
        .sender_views(std::slice::from_ref(config), state.ctx.now_ms())
        .await?;
    Ok(views.remove(0))
}

/// Puts a sender that was taken out of rotation back: the campaigns that waited for it send again.
#[utoipa::path(post, path = "/api/user/email-configs/{id}/put-back", tag = "senders", params(("id" = i64, Path)),
    responses((status = 200, body = SavedSender),
        (status = 404, description = "Email configuration not found", body = ErrorBody),
        (status = 409, description = "This sender is in rotation already", body = ErrorBody)))]
pub async fn put_back(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<SavedSender>> {
    health::put_back(&state.ctx, user.id, id)
        .await
        .map_err(|error| match error {
            PutBackError::NotFound => ApiError::not_found(error.to_string()),
            PutBackError::NotOut => {
                ApiError::new(StatusCode::CONFLICT, "not_out", error.to_string())
            }
            PutBackError::Store(error) => error.into(),
            PutBackError::Queue(error) => error.into(),
        })?;
    let saved = owned_config(&state, id, user.id).await?;
    Ok(Json(SavedSender {
        success: true,
        config: sender_view(&state, &saved).await?,
    }))
}

/// The default sender's status (A §3 Email configuration status).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SenderStatus {
    /// False: no sender is set up and mail stays in the local outbox.
    pub email_configured: bool,
    /// `basic`, `intermediate` or `advanced` (A §4), none without a sender.
    pub tier: Option<String>,
    pub email_send_from: String,
    pub email_send_from_name: String,
    pub email_reply_to: Option<String>,
    pub email_provider: Provider,
    pub use_o_auth: bool,
}

/// The default sender's status; without one, the local outbox.
#[utoipa::path(get, path = "/api/user/email-config", tag = "senders", responses((status = 200, body = SenderStatus)))]
pub async fn config_status(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<SenderStatus>> {
    let configs = state.ctx.db.sending().list_email_configs(user.id).await?;
    let default = configs
        .iter()
        .find(|config| config.is_default && config.is_active);
    Ok(Json(match default {
        Some(config) => SenderStatus {
            email_configured: true,
            tier: Some(config.provider.tier().to_string()),
            email_send_from: config.send_from.clone(),
            email_send_from_name: config.send_from_name.clone(),
            email_reply_to: config.reply_to.clone(),
            email_provider: config.provider,
            use_o_auth: config.provider == Provider::Gmail,
        },
        None => SenderStatus {
            email_configured: false,
            tier: None,
            email_send_from: format!("outbox@{}", state.ctx.settings.sending_domain()),
            email_send_from_name: user.email.clone(),
            email_reply_to: Some(user.email.clone()),
            email_provider: Provider::Outbox,
            use_o_auth: false,
        },
    }))
}

/// Makes a sender the default one, which campaigns send from.
#[utoipa::path(put, path = "/api/user/email-configs/{id}/set-default", tag = "senders", params(("id" = i64, Path)),
    responses((status = 200, body = Success),
        (status = 404, description = "Email configuration not found", body = ErrorBody)))]
pub async fn set_default(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Success>> {
    owned_config(&state, id, user.id).await?;
    state
        .ctx
        .db
        .sending()
        .set_default_email_config(user.id, id, state.ctx.now_ms())
        .await?;
    Ok(Json(DONE))
}

/// Removes a sender (its sent emails stay).
#[utoipa::path(delete, path = "/api/user/email-configs/{id}", tag = "senders", params(("id" = i64, Path)),
    responses((status = 200, body = Success),
        (status = 404, description = "Email configuration not found", body = ErrorBody),
        (status = 409, description = "This sender still has emails waiting to be sent", body = ErrorBody)))]
pub async fn delete_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Success>> {
    owned_config(&state, id, user.id).await?;
    if !state
        .ctx
        .db
        .sending()
        .delete_email_config(user.id, id, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "sender_in_use",
            "This sender still has emails waiting to be sent. Let those campaigns finish before removing it.",
        ));
    }
    Ok(Json(DONE))
}

pub(crate) async fn owned_config(
    state: &AppState,
    id: i64,
    user_id: i64,
) -> ApiResult<EmailConfig> {
    state
        .ctx
        .db
        .sending()
        .find_email_config(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Email configuration not found"))
}

/// The user's default active sender; None means the local outbox.
pub(crate) async fn default_sender(
    state: &AppState,
    user_id: i64,
) -> ApiResult<Option<EmailConfig>> {
    Ok(state.ctx.db.sending().default_sender(user_id).await?)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct IdentityRequest {
    first_name: Option<String>,
    last_name: Option<String>,
    email_prefix: Option<String>,
    reply_to: Option<String>,
    /// Its daily cap and ramp-up; a body with only these changes only them.
    #[serde(flatten)]
    limits: LimitsRequest,
}

/// A saved sender.
#[derive(Debug, Serialize, ToSchema)]
pub struct SavedSender {
    pub success: bool,
    pub config: EmailConfigView,
}

/// Changes a sender's name and reply-to; a basic address may also change its username.
#[utoipa::path(put, path = "/api/user/email-configs/{id}", tag = "senders", params(("id" = i64, Path)),
    request_body = IdentityRequest, responses((status = 200, body = SavedSender),
        (status = 404, description = "Email configuration not found", body = ErrorBody),
        (status = 422, description = "First name and last name are required, or the username is invalid or taken", body = ErrorBody)))]
pub async fn update_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<IdentityRequest>,
) -> ApiResult<Json<SavedSender>> {
    let config = owned_config(&state, id, user.id).await?;
    let (daily_cap, ramp) = request.limits.apply(config.daily_cap, config.ramp())?;
    let only_limits = request.first_name.is_none()
        && request.last_name.is_none()
        && request.email_prefix.is_none()
        && request.reply_to.is_none();
    if only_limits {
        if !request.limits.is_empty() {
            state
                .ctx
                .db
                .sending()
                .set_sender_limits(id, user.id, daily_cap, ramp, state.ctx.now_ms())
                .await?;
        }
        let saved = owned_config(&state, id, user.id).await?;
        return Ok(Json(SavedSender {
            success: true,
            config: sender_view(&state, &saved).await?,
        }));
    }
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
        if wanted != address && state.ctx.db.sending().email_address_taken(&wanted).await? {
            return Err(ApiError::validation("This username is already taken"));
        }
        address = wanted;
    }
    let name = format!("{first} {last}");
    state
        .ctx
        .db
        .sending()
        .update_email_identity(
            id,
            user.id,
            (&name, &address, reply_to.as_deref()),
            state.ctx.now_ms(),
        )
        .await?;
    if !request.limits.is_empty() {
        state
            .ctx
            .db
            .sending()
            .set_sender_limits(id, user.id, daily_cap, ramp, state.ctx.now_ms())
            .await?;
    }
    let saved = owned_config(&state, id, user.id).await?;
    Ok(Json(SavedSender {
        success: true,
        config: sender_view(&state, &saved).await?,
    }))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct VerifyRequest {
    /// The configuration to check; the default sender when absent (the spec's call has no body).
    config_id: Option<i64>,
}

/// What the domain check found.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    pub success: bool,
    pub verified: bool,
    pub config_id: i64,
    pub domain: String,
    /// SPF, DKIM and DMARC, each with the record found.
    pub checks: Vec<Check>,
    /// The records still to publish.
    pub missing: Vec<String>,
    pub message: String,
}

/// Reads the sender domain's SPF, DKIM and DMARC records; the sender keeps the outcome. Without a body, the
/// default sender.
#[utoipa::path(post, path = "/api/user/verify-email-config", tag = "senders", request_body(content = Option<VerifyRequest>),
    responses((status = 200, body = Verification),
        (status = 404, description = "There is no email configuration to verify", body = ErrorBody)))]
pub async fn verify_config(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    body: Option<Json<VerifyRequest>>,
) -> ApiResult<Json<Verification>> {
    let config = match body.and_then(|Json(request)| request.config_id) {
        Some(id) => owned_config(&state, id, user.id).await?,
        None => default_sender(&state, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("There is no email configuration to verify"))?,
    };
    let domain = config.send_from.rsplit('@').next().unwrap_or_default();
    let report = match config.provider {
        _ if needs_no_records(config.provider, &config.send_from) => None,
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
        .sending()
        .set_email_config_verified(config.id, verified, &message, state.ctx.now_ms())
        .await?;
    Ok(Json(Verification {
        success: verified,
        verified,
        config_id: config.id,
        domain: domain.to_string(),
        checks: report
            .as_ref()
            .map_or_else(Vec::new, |report| report.checks.clone()),
        missing: report.as_ref().map_or_else(Vec::new, |report| {
            report.missing().into_iter().map(str::to_string).collect()
        }),
        message,
    }))
}
