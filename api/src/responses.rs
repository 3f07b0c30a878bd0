//! Email responses (B §2.9, §3, §7; issue 20): the user's replies with what the AI read in them, the answers sent or
//! waiting for approval, the analytics of the Responses tab, and the test dialog (read and draft, nothing sent).

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use outreach_core::accounts::is_valid_email;
use outreach_core::platform::clock::Timestamp;
use outreach_core::responses::store::{AnswerStatus, RecentRow};
use outreach_core::responses::{
    Action, AnswerError, Classification, Escalation, Sentiment, approve, discard, test_reply,
};
use outreach_core::writing::ai::Draft;
use outreach_core::writing::ai::writer::Writer;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(analytics))
        .routes(routes!(process))
        .routes(routes!(edit_answer))
        .routes(routes!(approve_answer))
        .routes(routes!(discard_answer))
}

/// Replies listed at most, the latest first.
const RECENT: i64 = 50;

/// The answer to a reply: a draft waiting for approval, one discarded, or one queued as a message (`status` is then
/// the message's: queued, sending, sent, failed or skipped).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerView {
    pub id: i64,
    pub subject: String,
    pub body: String,
    pub status: String,
    /// Why it waits for approval.
    pub why: Option<String>,
    /// Sent without the user's approval.
    pub automatic: bool,
    /// `offline`, or the model that wrote it.
    pub writer: String,
    pub sent_at: Option<Timestamp>,
}

/// B §3 Email response, with the rest of the reading and the answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailResponse {
    pub id: i64,
    pub from_email: Option<String>,
    pub subject: String,
    pub body: String,
    /// Null until the reply is read.
    pub sentiment: Option<Sentiment>,
    pub action: Option<Action>,
    /// 0 to 1.
    pub confidence: Option<f64>,
    pub response_timestamp: Timestamp,
    pub language: Option<String>,
    pub summary: Option<String>,
    pub escalations: Vec<Escalation>,
    /// For "write again in September": the date (YYYY-MM-DD).
    pub follow_up_on: Option<String>,
    /// `offline` or the model that read it.
    pub classifier: Option<String>,
    /// Why the offline classifier read it although a model is configured.
    pub note: Option<String>,
    /// The email it answers.
    pub answered_subject: Option<String>,
    pub campaign_id: Option<i64>,
    pub answer: Option<AnswerView>,
}

/// Replies by sentiment.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct SentimentBreakdown {
    pub positive: i64,
    pub neutral: i64,
    pub negative: i64,
}

/// B §3 Response analytics, with the approvals waiting and the share of positive replies.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResponseAnalytics {
    pub total_responses: i64,
    /// Replies per 100 campaign emails (first emails and follow-ups) sent, a whole number (B §9).
    pub response_rate: f64,
    /// Positive replies per 100 replies read, rounded.
    pub positive_share: f64,
    pub pending_approvals: i64,
    /// Answers to replies sent (automatically or approved); they are not campaign emails.
    pub answers_sent: i64,
    pub sentiment_breakdown: SentimentBreakdown,
    /// Replies read, by action.
    pub action_breakdown: BTreeMap<String, i64>,
    pub recent_responses: Vec<EmailResponse>,
}

/// `part` per 100 of `whole`, a whole number (B §9: rates are whole-number percentages).
fn percent(part: i64, whole: i64) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    (part as f64 * 100.0 / whole as f64).round()
}

fn response(row: RecentRow) -> EmailResponse {
    let escalations = row.escalation_list();
    let received = row.received();
    let answer = row.answer_id.map(|id| AnswerView {
        id,
        subject: row.answer_subject.clone().unwrap_or_default(),
        body: row.answer_body.clone().unwrap_or_default(),
        status: match row.answer_status {
            Some(AnswerStatus::Queued) => row
                .answer_message_status
                .clone()
                .unwrap_or_else(|| AnswerStatus::Queued.to_string()),
            other => other
                .map(AnswerStatus::as_str)
                .unwrap_or_default()
                .to_string(),
        },
        why: row.answer_why.clone(),
        automatic: row.answer_automatic.unwrap_or(false),
        writer: row.answer_writer.clone().unwrap_or_default(),
        sent_at: row.answer_sent_at.map(Timestamp),
    });
    EmailResponse {
        id: row.id,
        from_email: row.from_email,
        subject: row.subject,
        body: row.body,
        sentiment: row.sentiment,
        action: row.action,
        confidence: row.confidence,
        response_timestamp: received,
        language: row.language,
        summary: row.summary,
        escalations,
        follow_up_on: row.follow_up_on,
        classifier: row.classifier,
        note: row.note,
        answered_subject: row.answered_subject,
        campaign_id: row.campaign_id,
        answer,
    }
}

/// The Responses tab's figures and the latest replies (B §2.9, §7), the user's only.
#[utoipa::path(get, path = "/api/email-responses/analytics", tag = "responses", responses((status = 200, body = ResponseAnalytics)))]
pub async fn analytics(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<ResponseAnalytics>> {
    let db = &state.ctx.db;
    let totals = db.responses().response_totals(user.id).await?;
    let mut sentiments = SentimentBreakdown::default();
    let mut actions: BTreeMap<String, i64> = [
        Action::MarkInterested,
        Action::Reply,
        Action::ScheduleFollowup,
        Action::MarkNotInterested,
    ]
    .iter()
    .map(|action| (action.as_str().to_string(), 0))
    .collect();
    let mut read = 0;
    for (sentiment, action, count) in db.responses().response_breakdown(user.id).await? {
        read += count;
        match sentiment {
            Sentiment::Positive => sentiments.positive += count,
            Sentiment::Neutral => sentiments.neutral += count,
            Sentiment::Negative => sentiments.negative += count,
        }
        *actions.entry(action.as_str().to_string()).or_default() += count;
    }
    let recent = db
        .responses()
        .recent_responses(user.id, RECENT)
        .await?
        .into_iter()
        .map(response)
        .collect();
    Ok(Json(ResponseAnalytics {
        total_responses: totals.replies,
        response_rate: percent(totals.replies, totals.sent),
        positive_share: percent(sentiments.positive, read),
        pending_approvals: totals.awaiting,
        answers_sent: totals.answers_sent,
        sentiment_breakdown: sentiments,
        action_breakdown: actions,
        recent_responses: recent,
    }))
}

/// The test dialog's reply (B §5): read and answered as if it came for one of the user's campaigns.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestResponse {
    from: String,
    subject: String,
    body: String,
    /// The campaign whose AI settings and education to use (none: the latest campaign).
    campaign_id: Option<i64>,
}

/// What the test dialog shows: the reading, the answer that would be drafted, and what would happen to it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessedResponse {
    pub success: bool,
    #[serde(flatten)]
    pub reading: Classification,
    pub classifier: String,
    pub note: Option<String>,
    pub draft: Option<Draft>,
    /// Who wrote the draft.
    pub writer: Option<String>,
    pub decision: String,
    pub campaign_name: Option<String>,
}

/// Reads a test reply and drafts its answer without storing or sending anything (B §2.9 test dialog, §5, §8).
#[utoipa::path(post, path = "/api/email-responses/process", tag = "responses", request_body = TestResponse, responses(
    (status = 200, body = ProcessedResponse),
    (status = 404, description = "Campaign not found", body = ErrorBody),
    (status = 422, description = "Please enter a valid email address, Subject is required, or Response body must be at least 10 characters", body = ErrorBody)))]
pub async fn process(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<TestResponse>,
) -> ApiResult<Json<ProcessedResponse>> {
    let from = request.from.trim();
    if !is_valid_email(from) {
        return Err(ApiError::validation("Please enter a valid email address"));
    }
    if request.subject.trim().is_empty() {
        return Err(ApiError::validation("Subject is required"));
    }
    if request.body.trim().chars().count() < 10 {
        return Err(ApiError::validation(
            "Response body must be at least 10 characters",
        ));
    }
    let db = &state.ctx.db;
    let campaign = match request.campaign_id {
        Some(id) => Some(
            db.campaigns()
                .find_campaign(id, user.id)
                .await?
                .ok_or_else(|| ApiError::not_found("Campaign not found"))?,
        ),
        None => db
            .campaigns()
            .list_campaigns(user.id)
            .await?
            .into_iter()
            .next(),
    };
    let writer = Writer::from_settings(&state.ctx.settings.ai).map_err(ApiError::internal)?;
    let outcome = test_reply(
        &state.ctx,
        &writer,
        user.id,
        campaign.as_ref(),
        from,
        &request.subject,
        &request.body,
    )
    .await
    .map_err(|error| ApiError::internal(error.to_string()))?;
    let (draft, written_by) = match outcome.draft {
        Some((draft, writer)) => (Some(draft), Some(writer)),
        None => (None, None),
    };
    Ok(Json(ProcessedResponse {
        success: true,
        reading: outcome.reading.classification,
        classifier: outcome.reading.classifier,
        note: outcome.reading.note,
        draft,
        writer: written_by,
        decision: outcome.decision,
        campaign_name: campaign.map(|row| row.name),
    }))
}

/// A draft as the user edits it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AnswerEdit {
    subject: String,
    body: String,
}

fn answer_error(error: AnswerError) -> ApiError {
    match error {
        AnswerError::NotFound => ApiError::not_found("Answer not found"),
        AnswerError::NotWaiting => ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "not_now",
            error.to_string(),
        ),
        AnswerError::Empty => ApiError::validation(error.to_string()),
        AnswerError::ReplyGone => ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "not_now",
            error.to_string(),
        ),
        AnswerError::NotMailable(_) => ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "not_mailable",
            error.to_string(),
        ),
        AnswerError::Store(error) => error.into(),
        AnswerError::Queue(error) => error.into(),
    }
}

/// Edits a draft waiting for approval.
#[utoipa::path(put, path = "/api/email-responses/answers/{id}", tag = "responses", params(("id" = i64, Path)),
    request_body = AnswerEdit, responses(
        (status = 200, body = Done),
        (status = 404, description = "Answer not found", body = ErrorBody),
        (status = 409, description = "This answer is no longer waiting for approval", body = ErrorBody),
        (status = 422, description = "The subject and the answer must not be empty", body = ErrorBody)))]
pub async fn edit_answer(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(edit): JsonBody<AnswerEdit>,
) -> ApiResult<Json<Done>> {
    let body = outreach_core::campaigns::personalise::sanitize_html(&edit.body);
    if edit.subject.trim().is_empty()
        || outreach_core::campaigns::personalise::html_text(&body)
            .trim()
            .is_empty()
    {
        return Err(answer_error(AnswerError::Empty));
    }
    let db = &state.ctx.db;
    db.responses()
        .find_answer(id, user.id)
        .await?
        .ok_or_else(|| answer_error(AnswerError::NotFound))?;
    if !db
        .responses()
        .edit_answer(id, user.id, edit.subject.trim(), &body)
        .await?
    {
        return Err(answer_error(AnswerError::NotWaiting));
    }
    Ok(Json(Done {
        success: true,
        message: "Draft saved".into(),
    }))
}

/// Approves a draft (as edited, when a subject and body are sent): it is sent now, in the thread.
#[utoipa::path(post, path = "/api/email-responses/answers/{id}/approve", tag = "responses", params(("id" = i64, Path)),
    request_body = Option<AnswerEdit>, responses(
        (status = 200, body = Done),
        (status = 404, description = "Answer not found", body = ErrorBody),
        (status = 409, description = "This answer is no longer waiting for approval, or will not be sent: the prospect unsubscribed, bounced or reported spam", body = ErrorBody),
        (status = 422, description = "The subject and the answer must not be empty", body = ErrorBody)))]
pub async fn approve_answer(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(edit): JsonBody<Option<AnswerEdit>>,
) -> ApiResult<Json<Done>> {
    let edited = edit.map(|edit| Draft {
        subject: edit.subject,
        body: edit.body,
    });
    approve(&state.ctx, user.id, id, edited)
        .await
        .map_err(answer_error)?;
    Ok(Json(Done {
        success: true,
        message: "Answer approved: it is being sent".into(),
    }))
}

/// Discards a draft: nothing is sent.
#[utoipa::path(post, path = "/api/email-responses/answers/{id}/discard", tag = "responses", params(("id" = i64, Path)), responses(
    (status = 200, body = Done),
    (status = 404, description = "Answer not found", body = ErrorBody),
    (status = 409, description = "This answer is no longer waiting for approval", body = ErrorBody)))]
pub async fn discard_answer(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Done>> {
    discard(&state.ctx, user.id, id)
        .await
        .map_err(answer_error)?;
    Ok(Json(Done {
        success: true,
        message: "Draft discarded".into(),
    }))
}
