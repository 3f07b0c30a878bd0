//! Test sends (A §5, §7): a template, a custom subject and body, or a campaign's email as each of a few businesses
//! would get it, sent to the user's test address through their sender; each waits for its outcome and answers it in
//! the spec's shape (`success`, `message`, `errorType`, `troubleshooting`).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::platform::jobs::Branding;
use outreach_core::sending::launch::TestMessage;
use outreach_core::sending::messages::MessageStatus;
use outreach_core::sending::senders::{EmailConfig, Provider};
use outreach_core::sending::test_sends::{TestSendError, queue_test_sends};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::senders::configs::default_sender;
use crate::senders::request::text;
use crate::sends::{CampaignEmailSettings, quantity};
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send_test_email))
        .routes(routes!(test_copies))
        .routes(routes!(test_campaign))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct TestSendRequest {
    /// `send-test-email` names the recipient `to`; the other test forms `testEmail`.
    to: Option<String>,
    test_email: Option<String>,
    subject: Option<String>,
    body: Option<String>,
    template_id: Option<i64>,
    /// `test-campaign` without a template: the campaign whose chosen template to test.
    campaign_id: Option<i64>,
    quantity: Option<i64>,
    business_ids: Vec<i64>,
    /// `test-campaign`: the builder's chosen businesses as the browser keeps them (A §3 `selectedBusinesses`, each
    /// with its `id`), tested besides `businessIds`.
    selected_businesses: Vec<SelectedBusiness>,
    /// `test-campaign`: A §3 Campaign email settings; `fromEmail` picks the sender of that address, `fromName` the
    /// name the tests come from.
    campaign_email_settings: Option<CampaignEmailSettings>,
    /// `send-test-email`: the spec's flag; these endpoints send only tests, so `false` is refused.
    is_test: Option<bool>,
}

/// A business as the browser keeps it among the chosen ones: only its id is read.
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
pub struct SelectedBusiness {
    id: i64,
}

impl TestSendRequest {
    /// The businesses to test with: `businessIds`, then those of `selectedBusinesses` not named already.
    fn businesses(&self) -> Vec<i64> {
        let named = self.business_ids.iter().copied();
        let selected = self.selected_businesses.iter().map(|business| business.id);
        outreach_core::platform::limits::distinct(&named.chain(selected).collect::<Vec<_>>())
    }

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
                .campaigns()
                .template_content(template_id, user_id)
                .await?
                .ok_or_else(|| ApiError::not_found("Template not found"))?;
            return Ok((Some(template_id), String::new(), None));
        }
        match (text(&self.subject), text(&self.body)) {
            (Some(subject), Some(body)) => Ok((
                None,
                subject,
                Some(outreach_core::campaigns::personalise::sanitize_html(&body)),
            )),
            _ => Err(ApiError::validation(
                "Missing Content: Please select a template or enter custom subject and body.",
            )),
        }
    }
}

/// The sender a test goes through: the default one, the local outbox for a user who set up none, and for a user
/// whose every sender is turned off, the spec's 'Email service not configured' (they meant to test a real sender).
async fn test_sender(state: &AppState, user_id: i64) -> ApiResult<Option<EmailConfig>> {
    let sender = default_sender(state, user_id).await?;
    if sender.is_none()
        && !state
            .ctx
            .db
            .sending()
            .list_email_configs(user_id)
            .await?
            .is_empty()
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "email_service_not_configured",
            "Email service not configured: every sender of yours is turned off. Turn one on in Email Settings.",
        ));
    }
    Ok(sender)
}

/// One test email now, through the default sender: `to` and a template, or `to`, `subject` and `body`.
#[utoipa::path(post, path = "/api/campaigns/send-test-email", tag = "sending", request_body = TestSendRequest, responses(
    (status = 200, body = TestResult),
    (status = 404, description = "Template not found", body = ErrorBody),
    (status = 429, description = "Too many test emails: at most 10 a minute and 50 in 24 hours", body = ErrorBody),
    (status = 409, description = "Email service not configured: every sender is turned off", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address, or Missing Content", body = ErrorBody)))]
pub async fn send_test_email(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<TestResult>> {
    let to = request.recipient()?;
    if request.is_test == Some(false) {
        return Err(ApiError::validation(
            "This sends test emails only (isTest must be true): launch a campaign to send real ones",
        ));
    }
    let (template_id, subject, body) = request.content(&state, user.id).await?;
    let outcome = send_tests(
        &state,
        &user,
        test_sender(&state, user.id).await?,
        &to,
        vec![TestMessage {
            template_id,
            business_id: None,
            subject,
            body,
        }],
        None,
    )
    .await?;
    Ok(Json(outcome.answer(&to)))
}

/// 1 to 10 copies (default 3) of a template to one address (`testEmail`, `quantity`, `templateId`).
#[utoipa::path(post, path = "/api/campaigns/test", tag = "sending", request_body = TestSendRequest, responses(
    (status = 200, body = TestResult),
    (status = 404, description = "Template not found", body = ErrorBody),
    (status = 429, description = "Too many test emails: at most 10 a minute and 50 in 24 hours", body = ErrorBody),
    (status = 409, description = "Email service not configured: every sender is turned off", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address, or Quantity must be between 1 and 10", body = ErrorBody)))]
pub async fn test_copies(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<TestResult>> {
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
        test_sender(&state, user.id).await?,
        &to,
        messages,
        None,
    )
    .await?;
    Ok(Json(outcome.answer(&to)))
}

/// The campaign's email as each of up to five businesses would get it, to the test address (`testEmail`,
/// `businessIds`, and `templateId`; the spec's body names none, so without it the template chosen for `campaignId`,
/// else for the user's latest campaign that has one).
#[utoipa::path(post, path = "/api/test-campaign", tag = "sending", request_body = TestSendRequest, responses(
    (status = 200, description = "Sent, or why not (`success` false with `errorType`)", body = TestResult),
    (status = 404, description = "Template or business not found", body = ErrorBody),
    (status = 429, description = "Too many test emails: at most 10 a minute and 50 in 24 hours", body = ErrorBody),
    (status = 422, description = "Please select a maximum of 5 businesses for testing., or another rule", body = ErrorBody)))]
pub async fn test_campaign(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<TestResult>> {
    let to = request.recipient()?;
    let business_ids = request.businesses();
    if business_ids.is_empty() {
        return Err(ApiError::validation(
            "Please select at least one business for testing.",
        ));
    }
    if business_ids.len() > 5 {
        return Err(ApiError::validation(
            "Please select a maximum of 5 businesses for testing.",
        ));
    }
    let db = &state.ctx.db;
    let chosen = match (request.template_id, request.campaign_id) {
        (Some(id), _) => Some(id),
        (None, Some(campaign)) => {
            db.campaigns()
                .find_campaign(campaign, user.id)
                .await?
                .ok_or_else(|| ApiError::not_found("Campaign not found"))?
                .template_id
        }
        // The spec's body names no template: the latest campaign's, else the newest template of the user's.
        (None, None) => match db
            .campaigns()
            .list_campaigns(user.id)
            .await?
            .into_iter()
            .find_map(|campaign| campaign.template_id)
        {
            Some(id) => Some(id),
            None => db
                .campaigns()
                .list_templates(user.id)
                .await?
                .into_iter()
                .max_by_key(|template| template.id)
                .map(|template| template.id),
        },
    };
    let template_id = chosen.ok_or_else(|| {
        ApiError::validation("Template Required: create an email template to test first")
    })?;
    db.campaigns()
        .template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    for id in &business_ids {
        db.discovery()
            .find_business(*id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Business not found"))?;
    }
    let settings = request.campaign_email_settings.as_ref();
    let named_sender = match settings.and_then(|settings| settings.from_email.as_deref()) {
        Some(address) => db
            .sending()
            .list_email_configs(user.id)
            .await?
            .into_iter()
            .find(|config| {
                config.is_active && config.send_from.eq_ignore_ascii_case(address.trim())
            }),
        None => None,
    };
    let sender = match named_sender {
        Some(config) => Some(config),
        None => default_sender(&state, user.id).await?,
    };
    let branding = settings
        .and_then(|settings| settings.from_name.as_deref())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| Branding {
            from_name: Some(name.to_string()),
            reply_to: None,
        });
    // A Gmail sender whose grant is gone: the user meant to test through Gmail, not the outbox.
    if sender.is_none()
        && let Some(revoked) = db
            .sending()
            .list_email_configs(user.id)
            .await?
            .into_iter()
            .find(|config| config.provider == Provider::Gmail && !config.is_active)
    {
        return Ok(Json(TestResult {
            success: false,
            sent: None,
            message: format!("Gmail access for {} was revoked or has expired", revoked.send_from),
            error_type: Some("gmail_oauth_not_configured".into()),
            troubleshooting: Some("Open Email Settings, Level 1 Gmail, and connect this address again, or make another sender the default.".into()),
            from_email: None,
        }));
    }
    let messages = business_ids
        .iter()
        .map(|id| TestMessage {
            template_id: Some(template_id),
            business_id: Some(*id),
            subject: String::new(),
            body: None,
        })
        .collect();
    let outcome = send_tests(&state, &user, sender, &to, messages, branding.as_ref()).await?;
    Ok(Json(outcome.answer(&to)))
}

/// What a test send did: how many went, or why they did not.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<usize>,
    pub message: String,
    /// `send_failed`, `recipient_suppressed` or `gmail_oauth_not_configured`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_type: Option<String>,
    /// What to check, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub troubleshooting: Option<String>,
    /// The address the test came from (basic SendGrid addresses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_email: Option<String>,
}

/// What happened to a set of test messages.
pub(crate) struct TestOutcome {
    sent: usize,
    waiting: usize,
    /// Why each message that was not sent was not: its status (failed or skipped) and the reason.
    errors: Vec<(MessageStatus, String)>,
    provider: Provider,
}

impl TestOutcome {
    pub(crate) fn answer(&self, to: &str) -> TestResult {
        // Not sent on purpose: the address may not be written to (it unsubscribed, bounced or complained).
        if let Some((_, why)) = self
            .errors
            .iter()
            .find(|(status, _)| *status == MessageStatus::Skipped)
        {
            return TestResult {
                success: false,
                sent: Some(self.sent),
                message: format!("Test email not sent to {to}: {why}"),
                error_type: Some("recipient_suppressed".into()),
                troubleshooting: Some("This address asked not to be written to, or bounced or reported spam earlier; send the test to another address.".into()),
                from_email: None,
            };
        }
        if let Some((_, error)) = self.errors.first() {
            return TestResult {
                success: false,
                sent: Some(self.sent),
                message: format!("Test email failed: {error}"),
                error_type: Some("send_failed".into()),
                troubleshooting: Some("Check the sender in Email Settings: its server, password or key, and that it is active.".into()),
                from_email: None,
            };
        }
        let place = if self.provider == Provider::Outbox {
            " (kept in the local outbox)"
        } else {
            ""
        };
        let message = if self.waiting > 0 {
            format!(
                "{} sent to {to}{place}; {} still sending",
                quantity(self.sent, "test email", "test emails"),
                self.waiting
            )
        } else {
            format!(
                "{} sent to {to}{place}",
                quantity(self.sent, "test email", "test emails")
            )
        };
        TestResult {
            success: true,
            sent: Some(self.sent),
            message,
            error_type: None,
            troubleshooting: None,
            from_email: None,
        }
    }
}

/// Queues test messages through `config` (None: the outbox), with `branding`'s from name and reply-to where given,
/// then waits for their outcome.
pub(crate) async fn send_tests(
    state: &AppState,
    user: &outreach_core::accounts::User,
    config: Option<EmailConfig>,
    to: &str,
    items: Vec<TestMessage>,
    branding: Option<&Branding>,
) -> ApiResult<TestOutcome> {
    let db = &state.ctx.db;
    let ids = queue_test_sends(&state.ctx, user, config.as_ref(), to, &items, branding)
        .await
        .map_err(|error| match error {
            TestSendError::NoPostalAddress => ApiError::validation(error.to_string()),
            TestSendError::TooMany(message) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_test_emails",
                message,
            ),
            TestSendError::Queue(error) => error.into(),
        })?;
    let load = || async { Ok::<_, ApiError>(db.sending().load_messages(&ids).await?) };
    let rows = crate::wait_for(std::time::Duration::from_secs(20), load, |rows| {
        rows.iter()
            .all(|row| !matches!(row.status, MessageStatus::Queued | MessageStatus::Sending))
    })
    .await?;
    let errors = db.sending().message_errors(&ids).await?;
    Ok(TestOutcome {
        sent: rows
            .iter()
            .filter(|row| row.status == MessageStatus::Sent)
            .count(),
        waiting: rows
            .iter()
            .filter(|row| matches!(row.status, MessageStatus::Queued | MessageStatus::Sending))
            .count(),
        errors,
        provider: config.map_or(Provider::Outbox, |config| config.provider),
    })
}
