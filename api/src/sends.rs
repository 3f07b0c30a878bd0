//! Sending campaigns (A §7 Campaigns send/launch): a launch queues one message row per recipient (written before
//! any `SendCampaignEmail` job is enqueued), its live progress, and test sends that wait for their outcome.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::accounts::{User, is_valid_email, normalize_email, quota_window_start};
use outreach_core::campaigns::CampaignStatus;
use outreach_core::discovery::businesses::BusinessRow;
use outreach_core::platform::clock::Timestamp;
use outreach_core::sending::control::{self, ControlError};
use outreach_core::sending::launch::{
    Launched, TestMessage, launch_campaign, queue_tests, valid_address,
};
use outreach_core::sending::launch_check::{LaunchCheck, LaunchPlan, check_launch};
use outreach_core::sending::messages::MessageStatus;
use outreach_core::sending::messages::Progress;
use outreach_core::sending::senders::{EmailConfig, Provider};
use outreach_core::sending::window::Place;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::senders::configs::{default_sender, owned_config};
use crate::senders::request::text;
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(launch))
        .routes(routes!(launch_alias))
        .routes(routes!(launch_check))
        .routes(routes!(progress))
        .routes(routes!(pause))
        .routes(routes!(resume))
        .routes(routes!(stop))
        .routes(routes!(send_test_email))
        .routes(routes!(test_copies))
        .routes(routes!(test_campaign))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LaunchRequest {
    campaign_id: Option<i64>,
    template_id: Option<i64>,
    business_ids: Vec<i64>,
    /// The sender configuration to use; the default one (else the outbox) when absent.
    email_config_id: Option<i64>,
    /// `POST /api/campaigns/launch` without a campaign: the name of the campaign it makes.
    name: Option<String>,
}

/// What a launch queued.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchAnswer {
    pub success: bool,
    /// Messages queued (they go out as the limits allow).
    pub emails_sent: usize,
    /// Businesses without an email address.
    pub skipped: usize,
    pub message: String,
}

/// What a launch request names, each checked to be the user's.
struct Plan {
    campaign_id: i64,
    template_id: i64,
    config: Option<EmailConfig>,
    businesses: Vec<BusinessRow>,
}

/// Reads what the request names (refusing the spec's launch errors, and anything not the user's), and checks the
/// launch (`outreach_core::sending::launch_check`).
async fn plan_launch(
    state: &AppState,
    user: &User,
    request: &LaunchRequest,
) -> ApiResult<(Plan, LaunchCheck)> {
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
    let campaign = db
        .find_campaign(campaign_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let (subject, body) = db
        .template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    let config = match request.email_config_id {
        Some(id) => Some(owned_config(state, id, user.id).await?),
        None => db.default_sender(user.id).await?,
    };
    if config.as_ref().is_some_and(|config| !config.is_active) {
        return Err(ApiError::validation(
            "This sender is not active; choose another one",
        ));
    }
    // A business named twice is sent one email; all are read in one query, and any not the user's is refused.
    let ids = outreach_core::platform::limits::distinct(&request.business_ids);
    let businesses = db.find_businesses(&ids, user.id).await?;
    if businesses.len() != ids.len() {
        return Err(ApiError::not_found("Business not found"));
    }
    let sent_this_month = db
        .count_sent_emails_since(user.id, quota_window_start(state.ctx.now_ms()))
        .await?;
    let emails: Vec<Option<&str>> = businesses
        .iter()
        .map(|business| business.email.as_deref())
        .collect();
    let places: Vec<Place> = businesses
        .iter()
        .filter(|business| valid_address(business.email.as_deref()).is_some())
        .map(|business| {
            (
                business.latitude,
                business.longitude,
                business.city.as_deref(),
            )
        })
        .collect();
    let held_by_window = campaign
        .window
        .window()
        .held_at(state.ctx.now_ms(), &places);
    let check = check_launch(
        &state.ctx.settings,
        &LaunchPlan {
            user,
            sent_this_month,
            subject: &subject,
            body: &body,
            config: config.as_ref(),
            emails: &emails,
            held_by_window,
        },
    );
    let plan = Plan {
        campaign_id,
        template_id,
        config,
        businesses,
    };
    Ok((plan, check))
}

/// The pre-launch check of a launch request: who would be emailed, the quota left, and what blocks the launch or
/// should be known before it.
#[utoipa::path(post, path = "/api/campaigns/launch-check", tag = "sending", request_body = LaunchRequest, responses(
    (status = 200, body = LaunchCheck),
    (status = 404, description = "Campaign, template, business or sender not found", body = ErrorBody),
    (status = 422, description = "Template Required, No Recipients or Campaign Required", body = ErrorBody)))]
pub async fn launch_check(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<LaunchRequest>,
) -> ApiResult<Json<LaunchCheck>> {
    Ok(Json(plan_launch(&state, &user, &request).await?.1))
}

/// Launches a campaign: queues one message per business (businesses without an address are recorded as skipped),
/// then the sending jobs, which send within the monthly quota and each sender's daily cap. A launch the pre-launch
/// check blocks is refused with the reason.
#[utoipa::path(post, path = "/api/campaigns/send", tag = "sending", request_body = LaunchRequest, responses(
    (status = 200, body = LaunchAnswer),
    (status = 404, description = "Campaign, template, business or sender not found", body = ErrorBody),
    (status = 422, description = "Template Required, No Recipients, Campaign Required, or what blocks the launch", body = ErrorBody)))]
pub async fn launch(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<LaunchRequest>,
) -> ApiResult<Json<LaunchAnswer>> {
    let (plan, check) = plan_launch(&state, &user, &request).await?;
    if let Some(block) = check.block() {
        return Err(ApiError::validation(block.message.clone()));
    }
    let launched = launch_campaign(
        &state.ctx,
        user.id,
        plan.campaign_id,
        plan.template_id,
        plan.config.as_ref().map(|config| config.id),
        &plan.businesses,
        false,
    )
    .await?;
    let Launched {
        queued, skipped, ..
    } = launched;
    Ok(Json(LaunchAnswer {
        success: true,
        emails_sent: queued,
        skipped,
        message: format!(
            "{} {} being sent{}. You can launch another campaign anytime.",
            quantity(queued, "email", "emails"),
            if queued == 1 { "is" } else { "are" },
            if skipped > 0 {
                format!(
                    " ({} without an email address skipped)",
                    quantity(skipped, "business", "businesses")
                )
            } else {
                String::new()
            }
        ),
    }))
}

/// `POST /api/campaigns/send` by the spec's other name and body (A §7 `{templateId, businessIds, name}`): without a
/// campaign, it launches a new one of that name, which a refused launch removes again.
#[utoipa::path(post, path = "/api/campaigns/launch", tag = "sending", request_body = LaunchRequest, responses(
    (status = 200, body = LaunchAnswer),
    (status = 404, description = "Campaign, template, business or sender not found", body = ErrorBody),
    (status = 422, description = "Template Required, No Recipients, Campaign Required, or what blocks the launch", body = ErrorBody)))]
pub async fn launch_alias(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(mut request): JsonBody<LaunchRequest>,
) -> ApiResult<Json<LaunchAnswer>> {
    let made = match (request.campaign_id, request.name.as_deref()) {
        (None, Some(name)) => Some(crate::campaigns::draft_named(&state, user.id, name).await?),
        _ => None,
    };
    request.campaign_id = request.campaign_id.or(made);
    let answer = launch(State(state.clone()), SignedIn(user.clone()), JsonBody(request)).await;
    if let (Err(_), Some(id)) = (&answer, made) {
        state.ctx.db.delete_campaign(id, user.id).await?;
    }
    answer
}

/// A campaign's sending progress.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignProgress {
    pub campaign_id: i64,
    pub status: CampaignStatus,
    /// Why the campaign paused (a limit reached, a sender revoked), when it did.
    pub status_reason: Option<String>,
    pub progress: Progress,
    /// When nothing is being sent but mail waits for a later time (the sending window, in each recipient's local
    /// time, or a sender's pace): when the next emails go out.
    pub next_send_at: Option<Timestamp>,
}

/// Queued, sending, sent, failed and skipped counts, the status and why it paused.
#[utoipa::path(get, path = "/api/campaigns/{id}/progress", tag = "sending", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignProgress),
    (status = 404, description = "Campaign not found", body = ErrorBody)))]
pub async fn progress(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignProgress>> {
    progress_of(&state, id, user.id).await
}

/// The campaign's progress after a control, as `GET /api/campaigns/{id}/progress` answers it.
async fn progress_of(state: &AppState, id: i64, user_id: i64) -> ApiResult<Json<CampaignProgress>> {
    let campaign = state
        .ctx
        .db
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let progress = state.ctx.db.campaign_progress(id).await?;
    let next_send_at = if progress.queued > 0 && progress.sending == 0 {
        state
            .ctx
            .queue
            .next_send_of_campaign(id, state.ctx.now_ms())
            .await?
            .map(Timestamp)
    } else {
        None
    };
    Ok(Json(CampaignProgress {
        campaign_id: id,
        status: campaign.status,
        status_reason: state.ctx.db.campaign_status_reason(id).await?,
        progress,
        next_send_at,
    }))
}

/// The user's controls over a launched campaign.
enum Control {
    Pause,
    Resume,
    Stop,
}

/// Runs a control on one of the user's campaigns and answers its progress.
async fn control(
    state: &AppState,
    id: i64,
    user_id: i64,
    action: Control,
) -> ApiResult<Json<CampaignProgress>> {
    let campaign = state
        .ctx
        .db
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let ctx = &state.ctx;
    let done = match action {
        Control::Pause => control::pause(ctx, &campaign).await,
        Control::Resume => control::resume(ctx, &campaign).await,
        Control::Stop => control::stop(ctx, &campaign).await.map(|_| ()),
    };
    done.map_err(|error| match error {
        ControlError::Store(error) => ApiError::from(error),
        ControlError::Queue(error) => ApiError::from(error),
        refused => ApiError::new(StatusCode::CONFLICT, "not_now", refused.to_string()),
    })?;
    progress_of(state, id, user_id).await
}

/// Pauses a campaign: nothing more is sent until the user resumes it (its messages stay queued).
#[utoipa::path(post, path = "/api/campaigns/{id}/pause", tag = "sending", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignProgress),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 409, description = "Only a campaign that is sending can be paused", body = ErrorBody)))]
pub async fn pause(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignProgress>> {
    control(&state, id, user.id, Control::Pause).await
}

/// Resumes a paused campaign: its queued messages are sent again, within the limits.
#[utoipa::path(post, path = "/api/campaigns/{id}/resume", tag = "sending", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignProgress),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 409, description = "Only a paused campaign can be resumed", body = ErrorBody)))]
pub async fn resume(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignProgress>> {
    control(&state, id, user.id, Control::Resume).await
}

/// Stops a campaign for good: what is still queued is skipped ("Stopped by you") and the campaign completes.
#[utoipa::path(post, path = "/api/campaigns/{id}/stop", tag = "sending", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignProgress),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 409, description = "This campaign has finished; there is nothing to stop", body = ErrorBody)))]
pub async fn stop(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignProgress>> {
    control(&state, id, user.id, Control::Stop).await
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
                Some(outreach_core::campaigns::personalise::sanitize_html(&body)),
            )),
            _ => Err(ApiError::validation(
                "Missing Content: Please select a template or enter custom subject and body.",
            )),
        }
    }
}

/// One test email now, through the default sender: `to` and a template, or `to`, `subject` and `body`.
#[utoipa::path(post, path = "/api/campaigns/send-test-email", tag = "sending", request_body = TestSendRequest, responses(
    (status = 200, body = TestResult),
    (status = 404, description = "Template not found", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address, or Missing Content", body = ErrorBody)))]
pub async fn send_test_email(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<TestResult>> {
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

/// 1 to 10 copies (default 3) of a template to one address (`testEmail`, `quantity`, `templateId`).
#[utoipa::path(post, path = "/api/campaigns/test", tag = "sending", request_body = TestSendRequest, responses(
    (status = 200, body = TestResult),
    (status = 404, description = "Template not found", body = ErrorBody),
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
        default_sender(&state, user.id).await?,
        &to,
        messages,
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
    (status = 422, description = "Please select a maximum of 5 businesses for testing., or another rule", body = ErrorBody)))]
pub async fn test_campaign(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestSendRequest>,
) -> ApiResult<Json<TestResult>> {
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
    let db = &state.ctx.db;
    let chosen = match (request.template_id, request.campaign_id) {
        (Some(id), _) => Some(id),
        (None, Some(campaign)) => db
            .find_campaign(campaign, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Campaign not found"))?
            .template_id,
        (None, None) => db
            .list_campaigns(user.id)
            .await?
            .into_iter()
            .find_map(|campaign| campaign.template_id),
    };
    let template_id = chosen.ok_or_else(|| ApiError::validation("Template Required"))?;
    db.template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    for id in &request.business_ids {
        db.find_business(*id, user.id)
            .await?
            .ok_or_else(|| ApiError::not_found("Business not found"))?;
    }
    let sender = default_sender(&state, user.id).await?;
    // A Gmail sender whose grant is gone: the user meant to test through Gmail, not the outbox.
    if sender.is_none()
        && let Some(revoked) = db
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

/// What a test send did: how many went, or why they did not.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    pub success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<usize>,
    pub message: String,
    /// `send_failed` or `gmail_oauth_not_configured`.
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
    errors: Vec<String>,
    provider: Provider,
}

impl TestOutcome {
    pub(crate) fn answer(&self, to: &str) -> TestResult {
        if let Some(error) = self.errors.first() {
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

/// Queues test messages through `config` (None: the outbox), then waits for their outcome.
pub(crate) async fn send_tests(
    state: &AppState,
    user: &outreach_core::accounts::User,
    config: Option<EmailConfig>,
    to: &str,
    items: Vec<TestMessage>,
) -> ApiResult<TestOutcome> {
    let db = &state.ctx.db;
    let config_id = config.as_ref().map(|config| config.id);
    let ids = queue_tests(&state.ctx, user.id, config_id, to, &items).await?;
    let load = || async {
        let mut rows = Vec::new();
        for id in &ids {
            rows.extend(db.load_message(*id).await?);
        }
        Ok::<_, ApiError>(rows)
    };
    let rows = crate::wait_for(std::time::Duration::from_secs(20), load, |rows| {
        rows.iter()
            .all(|row| !matches!(row.status, MessageStatus::Queued | MessageStatus::Sending))
    })
    .await?;
    let errors = db.message_errors(&ids).await?;
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

/// "1 email", "3 emails": a number with its noun in the right number (issue 33.4: "1 emails").
fn quantity(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_is_singular_and_every_other_number_plural() {
        assert_eq!(super::quantity(1, "email", "emails"), "1 email");
        assert_eq!(super::quantity(0, "email", "emails"), "0 emails");
        assert_eq!(
            super::quantity(2, "test email", "test emails"),
            "2 test emails"
        );
    }
}
