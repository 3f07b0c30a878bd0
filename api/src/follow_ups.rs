//! The Follow-up Manager and Follow-up Analytics (B §2.12, §2.13, §7): the follow-ups waiting to go out in both of
//! the spec's shapes, Send All (what is ready, now, within the limits, with a result per follow-up), a test of one
//! follow-up to an address of the user's choice, and the sent follow-ups with their opens and clicks.

use axum::Json;
use axum::extract::{Path, State};
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::campaigns::templates::FollowUpTiming;
use outreach_core::followups::{
    STOPPED_BY_HAND, SentFollowUp, pending_as_written, queue_due_follow_ups,
};
use outreach_core::platform::clock::Timestamp;
use outreach_core::sending::launch::TestMessage;
use outreach_core::sending::messages::{MessageKind, MessageStatus};
use outreach_core::sending::sequence::PendingFollowUp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::senders::configs::default_sender;
use crate::session::SignedIn;
use crate::test_sends::{TestResult, send_tests};

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(pending))
        .routes(routes!(manager_pending))
        .routes(routes!(send_all))
        .routes(routes!(test))
        .routes(routes!(analytics))
        .routes(routes!(stop))
}

/// Follow-ups listed at most, the soonest first.
const LISTED: i64 = 500;
/// How long Send All waits for its follow-ups to be sent before answering with what is still sending.
const SEND_ALL_WAIT: std::time::Duration = std::time::Duration::from_secs(20);

/// The first email a follow-up answers.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OriginalEmail {
    pub id: i64,
    pub subject: String,
    pub sent_at: Timestamp,
    /// When a person first opened it (none yet for a follow-up timed from sending).
    pub opened_at: Option<Timestamp>,
}

/// The follow-up of the template that goes out.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpTemplateRef {
    pub id: i64,
    pub subject: String,
    pub body: String,
    pub delay_days: i32,
    /// Whether `delayDays` count from the open or from sending.
    pub timing: FollowUpTiming,
}

/// B §3 Pending follow-up (manager): ready when `scheduledFor` is now or past.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManagerPending {
    pub original_email: OriginalEmail,
    pub follow_up_template: FollowUpTemplateRef,
    pub recipient: String,
    pub sequence_number: i32,
    pub scheduled_for: Timestamp,
    pub ready: bool,
}

/// A follow-up's content.
#[derive(Debug, Serialize, ToSchema)]
pub struct EmailContent {
    pub subject: String,
    pub body: String,
}

/// The business a follow-up goes to.
#[derive(Debug, Serialize, ToSchema)]
pub struct PendingBusiness {
    pub id: i64,
    pub email: String,
}

/// B §3 Pending follow-up (automation area): `status` is `ready` or `scheduled`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingItem {
    /// The first email's id with the follow-up number, unique in the list.
    pub id: String,
    pub follow_up_number: i32,
    pub scheduled_date: Timestamp,
    pub status: String,
    pub email_content: EmailContent,
    pub business: PendingBusiness,
}

async fn pending_of(state: &AppState, user_id: i64) -> ApiResult<Vec<PendingFollowUp>> {
    Ok(pending_as_written(
        &state.ctx.db,
        user_id,
        LISTED,
        outreach_core::platform::clock::date_of(state.ctx.now_ms()),
    )
    .await?)
}

/// The user's follow-ups waiting to go out (B §7 `/api/follow-ups/pending`).
#[utoipa::path(get, path = "/api/follow-ups/pending", tag = "follow-ups", responses((status = 200, body = Vec<PendingItem>)))]
pub async fn pending(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<PendingItem>>> {
    let now = state.ctx.now_ms();
    let items = pending_of(&state, user.id)
        .await?
        .into_iter()
        .map(|follow_up| PendingItem {
            id: format!("{}-{}", follow_up.original_id, follow_up.step),
            follow_up_number: follow_up.step,
            scheduled_date: Timestamp(follow_up.scheduled_for),
            status: if follow_up.scheduled_for <= now {
                "ready"
            } else {
                "scheduled"
            }
            .into(),
            email_content: EmailContent {
                subject: follow_up.follow_up_subject,
                body: follow_up.follow_up_body,
            },
            business: PendingBusiness {
                id: follow_up.business_id,
                email: follow_up.to_email,
            },
        })
        .collect();
    Ok(Json(items))
}

/// The Follow-up Manager's list (B §2.12, refreshed every 30 s).
#[utoipa::path(get, path = "/api/followup-cronjob/pending", tag = "follow-ups", responses((status = 200, body = Vec<ManagerPending>)))]
pub async fn manager_pending(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<ManagerPending>>> {
    let now = state.ctx.now_ms();
    let items = pending_of(&state, user.id)
        .await?
        .into_iter()
        .map(|follow_up| ManagerPending {
            original_email: OriginalEmail {
                id: follow_up.original_id,
                subject: follow_up.original_subject,
                sent_at: Timestamp(follow_up.original_sent_at),
                opened_at: follow_up.original_opened_at.map(Timestamp),
            },
            follow_up_template: FollowUpTemplateRef {
                id: follow_up.follow_up_id,
                subject: follow_up.follow_up_subject,
                body: follow_up.follow_up_body,
                delay_days: follow_up.delay_days,
                timing: follow_up.timing,
            },
            recipient: follow_up.to_email,
            sequence_number: follow_up.step,
            scheduled_for: Timestamp(follow_up.scheduled_for),
            ready: follow_up.scheduled_for <= now,
        })
        .collect();
    Ok(Json(items))
}

/// What Send All did with one follow-up.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendResult {
    pub recipient_email: String,
    pub sequence_number: i32,
    /// `sent`, `failed`, `skipped`, or `queued` while it waits for room or its sender.
    pub status: MessageStatus,
}

/// Send All's answer: how many follow-ups it processed, and each one's result.
#[derive(Debug, Serialize, ToSchema)]
pub struct SendAllResult {
    pub success: bool,
    pub processed: usize,
    pub results: Vec<SendResult>,
}

/// Sends every follow-up that is ready now, within the monthly quota and the senders' daily caps, through the same
/// batches as the scheduler's; answers once they are sent (or with what still waits).
#[utoipa::path(post, path = "/api/followup-cronjob/send-all", tag = "follow-ups", responses((status = 200, body = SendAllResult)))]
pub async fn send_all(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<SendAllResult>> {
    let ids = queue_due_follow_ups(&state.ctx, Some(user.id)).await?;
    let db = &state.ctx.db;
    let load = || async {
        let mut rows = Vec::new();
        for id in &ids {
            rows.extend(db.sending().load_message(*id).await?);
        }
        Ok::<_, ApiError>(rows)
    };
    let rows = crate::wait_for(SEND_ALL_WAIT, load, |rows| {
        rows.iter()
            .all(|row| !matches!(row.status, MessageStatus::Queued | MessageStatus::Sending))
    })
    .await?;
    let results: Vec<SendResult> = rows
        .into_iter()
        .map(|row| SendResult {
            recipient_email: row.to_email,
            sequence_number: row.step,
            status: if row.status == MessageStatus::Sending {
                MessageStatus::Queued
            } else {
                row.status
            },
        })
        .collect();
    Ok(Json(SendAllResult {
        success: true,
        processed: results.len(),
        results,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FollowUpTest {
    original_email_id: i64,
    follow_up_template_id: i64,
    recipient_email: String,
}

/// Sends one follow-up, personalised for the prospect of the first email, to an address of the user's choice as a
/// test: it is not the prospect's follow-up and does not count as one.
#[utoipa::path(post, path = "/api/followup-cronjob/test", tag = "follow-ups", request_body = FollowUpTest, responses(
    (status = 200, description = "Sent, or why not (`success` false)", body = TestResult),
    (status = 404, description = "Email or follow-up not found", body = ErrorBody),
    (status = 429, description = "Too many test emails: at most 10 a minute and 50 in 24 hours", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address", body = ErrorBody)))]
pub async fn test(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<FollowUpTest>,
) -> ApiResult<Json<TestResult>> {
    let to = normalize_email(&request.recipient_email);
    if !is_valid_email(&to) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    let original = state
        .ctx
        .db
        .sending()
        .load_message(request.original_email_id)
        .await?
        .filter(|message| message.user_id == user.id && message.kind != MessageKind::Test)
        .ok_or_else(|| ApiError::not_found("Email not found"))?;
    let follow_up = state
        .ctx
        .db
        .campaigns()
        .find_follow_up(request.follow_up_template_id, user.id)
        .await?
        .filter(|follow_up| Some(follow_up.main_template_id) == original.template_id)
        .ok_or_else(|| ApiError::not_found("Follow-up not found"))?;
    let sender = default_sender(&state, user.id).await?;
    let message = TestMessage {
        template_id: None,
        business_id: original.business_id,
        subject: follow_up.subject,
        body: Some(follow_up.body),
    };
    let outcome = send_tests(&state, &user, sender, &to, vec![message], None).await?;
    Ok(Json(outcome.answer(&to)))
}

/// The user's sent follow-ups with their opens and clicks (B §2.13, refreshed every 60 s).
#[utoipa::path(get, path = "/api/followup-cronjob/analytics", tag = "follow-ups", responses((status = 200, body = Vec<SentFollowUp>)))]
pub async fn analytics(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<SentFollowUp>>> {
    Ok(Json(
        state
            .ctx
            .db
            .followups()
            .sent_follow_ups(user.id, LISTED)
            .await?,
    ))
}

/// Stops the follow-ups of the prospect of one of the user's campaign emails (Stop Follow-ups on the contact in
/// campaign details): nothing more of the sequence goes to that business in that campaign.
#[utoipa::path(post, path = "/api/emails/{id}/stop-follow-ups", tag = "follow-ups", params(("id" = i64, Path)), responses(
    (status = 200, body = Done),
    (status = 404, description = "Email not found", body = ErrorBody)))]
pub async fn stop(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Done>> {
    if !state
        .ctx
        .db
        .followups()
        .stop_follow_ups(id, user.id, STOPPED_BY_HAND, state.ctx.now_ms())
        .await?
    {
        return Err(ApiError::not_found("Email not found"));
    }
    Ok(Json(Done {
        success: true,
        message: "Follow-ups stopped".into(),
    }))
}
