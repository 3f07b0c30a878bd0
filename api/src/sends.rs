//! Sending campaigns (A §7 Campaigns send/launch): a launch queues one message row per recipient (written before
//! any `SendCampaignEmail` job is enqueued), and its live progress; test sends are `test_sends`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use outreach_core::accounts::User;
use outreach_core::campaigns::CampaignStatus;
use outreach_core::platform::clock::Timestamp;
use outreach_core::sending::control::{self, ControlError};
use outreach_core::sending::launch::{Launched, launch_campaign};
use outreach_core::sending::launch_check::{self, LaunchCheck, PlanError, Planned, plan_launch};
use outreach_core::sending::outgoing::Hold;
use outreach_core::sending::pool::SenderProgress;
use outreach_core::sending::progress::Progress;
use outreach_core::sending::sequence::Scope;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
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
        .routes(routes!(send_uncertain_again))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct LaunchRequest {
    campaign_id: Option<i64>,
    template_id: Option<i64>,
    business_ids: Vec<i64>,
    /// The senders to send from, which become the campaign's pool: each email goes from the one with the most
    /// room left when it is sent. An empty list is refused.
    email_config_ids: Option<Vec<i64>>,
    /// The one sender to send from (the spec's one-sender form); absent with `emailConfigIds` too: the campaign's
    /// pool, else the default sender, else the outbox.
    email_config_id: Option<i64>,
    /// The spec's sender settings: `fromEmail` picks the sender of that address in a one-sender campaign, and
    /// `fromName` becomes the campaign's sender name.
    campaign_email_settings: Option<CampaignEmailSettings>,
    /// `POST /api/campaigns/launch` without a campaign: the name of the campaign it makes.
    name: Option<String>,
}

/// A §3 Campaign email settings.
#[derive(Debug, Default, Deserialize, serde::Serialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct CampaignEmailSettings {
    pub(crate) from_name: Option<String>,
    pub(crate) from_email: Option<String>,
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
    /// When some of the emails wait for the sending window: when it opens for the first of them.
    pub window_opens_at: Option<Timestamp>,
}

/// The launch use case on this request (`outreach_core::sending::launch_check::plan_launch`), its refusals as the
/// API answers them.
async fn plan(
    state: &AppState,
    user: &User,
    request: &LaunchRequest,
) -> ApiResult<(Planned, LaunchCheck)> {
    let named = launch_check::LaunchRequest {
        campaign_id: request.campaign_id,
        template_id: request.template_id,
        business_ids: &request.business_ids,
        email_config_ids: request.email_config_ids.as_deref(),
        email_config_id: request.email_config_id,
        from_email: request
            .campaign_email_settings
            .as_ref()
            .and_then(|settings| settings.from_email.as_deref()),
    };
    plan_launch(&state.ctx, user, named)
        .await
        .map_err(|error| match error {
            PlanError::Invalid(message) => ApiError::validation(message),
            PlanError::NotFound(message) => ApiError::not_found(message),
            PlanError::EmptyPool => ApiError::new(
                StatusCode::BAD_REQUEST,
                "empty_pool",
                PlanError::EmptyPool.to_string(),
            ),
            PlanError::Store(error) => error.into(),
        })
}

/// The pre-launch check of a launch request: who would be emailed, the quota left, what blocks the launch or
/// should be known before it, and the first message's spam score (SpamAssassin's when the server has it).
#[utoipa::path(post, path = "/api/campaigns/launch-check", tag = "sending", request_body = LaunchRequest, responses(
    (status = 200, body = LaunchCheck),
    (status = 404, description = "Campaign, template, business or sender not found", body = ErrorBody),
    (status = 422, description = "Template Required, No Recipients or Campaign Required", body = ErrorBody)))]
pub async fn launch_check(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<LaunchRequest>,
) -> ApiResult<Json<LaunchCheck>> {
    let (planned, mut check) = plan(&state, &user, &request).await?;
    check.spam_check =
        outreach_core::sending::spam::check_launch_message(&state.ctx, &user, &planned).await?;
    Ok(Json(check))
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
    let (plan, check) = plan(&state, &user, &request).await?;
    if let Some(block) = check.block() {
        return Err(ApiError::validation(block.message.clone()));
    }
    // A §3 Campaign email settings: the sender name the launch asks for is the campaign's from now on.
    if let Some(from_name) = request
        .campaign_email_settings
        .as_ref()
        .and_then(|settings| settings.from_name.as_deref())
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        let campaigns = state.ctx.db.campaigns();
        if let Some(mut row) = campaigns.find_campaign(plan.campaign_id, user.id).await? {
            row.email_from_name = Some(from_name.to_string());
            campaigns.update_campaign(&row, state.ctx.now_ms()).await?;
        }
    }
    if plan.chosen {
        let pool: Vec<i64> = plan.senders.iter().map(|config| config.id).collect();
        state
            .ctx
            .db
            .sending()
            .set_campaign_pool(plan.campaign_id, &pool)
            .await?;
    }
    let launched = launch_campaign(
        &state.ctx,
        user.id,
        plan.campaign_id,
        plan.template_id,
        &plan.businesses,
        false,
    )
    .await?;
    let Launched {
        queued, skipped, ..
    } = launched;
    let window_opens_at = check
        .findings
        .iter()
        .find_map(|finding| finding.at.filter(|_| check.waiting_for_window > 0));
    let under_way = match check.waiting_for_window.min(queued) {
        0 => format!(
            "{} {} being sent",
            quantity(queued, "email", "emails"),
            if queued == 1 { "is" } else { "are" }
        ),
        waiting if waiting == queued => format!(
            "{} queued: the sending window is closed for {} now, so {} for it to open",
            quantity(queued, "email", "emails"),
            if queued == 1 {
                "its recipient"
            } else {
                "every recipient"
            },
            if queued == 1 { "it waits" } else { "they wait" }
        ),
        waiting => format!(
            "{} queued: {} now, and {waiting} {} for the sending window to open",
            quantity(queued, "email", "emails"),
            if queued - waiting == 1 {
                "1 is being sent".to_string()
            } else {
                format!("{} are being sent", queued - waiting)
            },
            if waiting == 1 { "waits" } else { "wait" }
        ),
    };
    Ok(Json(LaunchAnswer {
        success: true,
        emails_sent: queued,
        skipped,
        window_opens_at,
        message: format!(
            "{under_way}{}. You can launch another campaign anytime.",
            if skipped > 0 {
                format!(
                    " ({} without an email address skipped)",
                    quantity(skipped, "business", "businesses")
                )
            } else {
                String::new()
            }
        ) + &if check.already > 0 {
            format!(
                " {} this campaign emailed already {} not emailed again.",
                quantity(check.already, "business", "businesses"),
                if check.already == 1 { "is" } else { "are" }
            )
        } else {
            String::new()
        },
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
    let answer = launch(
        State(state.clone()),
        SignedIn(user.clone()),
        JsonBody(request),
    )
    .await;
    if let (Err(_), Some(id)) = (&answer, made) {
        state
            .ctx
            .db
            .campaigns()
            .delete_campaign(id, user.id)
            .await?;
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
    /// What holds those next emails back: the sending window, a sender's pace or daily cap, the monthly limit, or a
    /// retry through another sender.
    pub next_send_reason: Option<Hold>,
    /// An active campaign whose first emails have all gone, with follow-ups scheduled: when the next goes out.
    pub next_follow_up_at: Option<Timestamp>,
    /// Each sender of the campaign: what it sent and what waits on it, its cap today and its state.
    pub senders: Vec<SenderProgress>,
    /// A worker stopped while it held some of the campaign's emails: when they are settled (by how far each got)
    /// and sending goes on.
    pub resuming_at: Option<Timestamp>,
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
        .campaigns()
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let progress = state.ctx.db.sending().campaign_progress(id).await?;
    let next_send = if progress.queued > 0 && progress.sending == 0 {
        state
            .ctx
            .queue
            .next_send_of_campaign(id, state.ctx.now_ms())
            .await?
    } else {
        None
    };
    let next_send_at = next_send.as_ref().map(|(at, _)| Timestamp(*at));
    let next_send_reason = next_send
        .and_then(|(_, key)| key)
        .and_then(|key| Hold::of_job_key(&key));
    // First emails all gone, follow-ups still to go: the campaign stays active for them, and says when the next is.
    let next_follow_up_at = if campaign.status == CampaignStatus::Active && !progress.waiting() {
        let scope = Scope {
            user_id: Some(user_id),
            campaign_id: Some(id),
        };
        let pending = state
            .ctx
            .db
            .sending()
            .pending_follow_ups(scope, i64::MAX, 1)
            .await?;
        pending
            .first()
            .map(|follow_up| Timestamp(follow_up.scheduled_for))
    } else {
        None
    };
    let lease_ms = state.ctx.settings.queue.lease_seconds.max(1) as i64 * 1000;
    let resuming_at = state
        .ctx
        .db
        .sending()
        .resuming_at(id, state.ctx.now_ms(), lease_ms)
        .await?
        .map(Timestamp);
    Ok(Json(CampaignProgress {
        campaign_id: id,
        resuming_at,
        status: campaign.status,
        status_reason: state.ctx.db.campaigns().campaign_status_reason(id).await?,
        progress,
        next_send_at,
        next_send_reason,
        next_follow_up_at,
        senders: state
            .ctx
            .db
            .sending()
            .campaign_senders(user_id, id, state.ctx.now_ms())
            .await?,
    }))
}

/// The user's controls over a launched campaign.
enum Control {
    Pause,
    Resume,
    Stop,
    SendUncertainAgain,
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
        .campaigns()
        .find_campaign(id, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let ctx = &state.ctx;
    let done = match action {
        Control::Pause => control::pause(ctx, &campaign).await,
        Control::Resume => control::resume(ctx, &campaign).await,
        Control::Stop => control::stop(ctx, &campaign).await.map(|_| ()),
        Control::SendUncertainAgain => control::send_uncertain_again(ctx, &campaign)
            .await
            .map(|_| ()),
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

/// Sends the campaign's emails in doubt again (their worker stopped while handing them to the server, so some may
/// have arrived: the screen asks first). A finished campaign sends again; a paused one keeps them for its resume.
#[utoipa::path(post, path = "/api/campaigns/{id}/send-uncertain-again", tag = "sending", params(("id" = i64, Path)), responses(
    (status = 200, body = CampaignProgress),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 409, description = "No email of this campaign is in doubt", body = ErrorBody)))]
pub async fn send_uncertain_again(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<CampaignProgress>> {
    control(&state, id, user.id, Control::SendUncertainAgain).await
}

/// "1 email", "3 emails": a number with its noun in the right number (issue 33.4: "1 emails").
pub(crate) fn quantity(n: usize, one: &str, many: &str) -> String {
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
