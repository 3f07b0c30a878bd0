//! The unified inbox (issue 34): the user's conversations with prospects who answered, a page at a time (keyset
//! cursor), one conversation with every message both ways, an answer typed in the app, an AI draft to start it, and
//! what the user marks on a thread (read, done, a label).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use outreach_core::inbox::store::{ReceivedInThread, SentInThread, ThreadRow};
use outreach_core::inbox::{
    InboxError, Label, Only, ThreadChange, ThreadQuery, answer, change, draft,
};
use outreach_core::platform::clock::Timestamp;
use outreach_core::responses::{Action, Escalation, Sentiment};
use outreach_core::sending::messages::{MessageKind, MessageStatus};
use outreach_core::writing::ai::writer::Writer;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(threads))
        .routes(routes!(thread, update))
        .routes(routes!(reply))
        .routes(routes!(write_draft))
}

/// Threads a page lists by default, and at most.
const PAGE: i64 = 50;
const PAGE_MAX: i64 = 200;

const NOT_FOUND: &str = "Conversation not found";

/// Which threads to list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(default, rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ThreadFilters {
    /// `unread`, `interested`, `awaiting` (an answer waits for approval) or `escalated`.
    filter: Option<String>,
    /// Threads marked done (default: the others).
    done: Option<bool>,
    campaign_id: Option<i64>,
    /// The sender (email configuration) the thread's emails went through.
    sender_id: Option<i64>,
    /// `interested`, `meeting_booked`, `not_interested`, `wrong_person` or `out_of_office`.
    label: Option<String>,
    /// Words in the prospect's address, the business's name, the subject or a reply.
    q: Option<String>,
    /// The `nextCursor` of the page before.
    cursor: Option<String>,
    /// Threads in the page (50 by default, at most 200).
    limit: Option<i64>,
}

/// The AI's reading of a reply.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reading {
    pub sentiment: Sentiment,
    pub action: Action,
    pub escalations: Vec<Escalation>,
}

/// A conversation as the inbox lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InboxThread {
    pub id: i64,
    /// The prospect: the address the campaign emailed.
    pub prospect: String,
    pub business_name: Option<String>,
    pub campaign_id: Option<i64>,
    pub campaign_name: Option<String>,
    pub sender_id: Option<i64>,
    pub subject: String,
    /// The first words of the latest reply.
    pub excerpt: String,
    /// Who wrote the latest reply (the prospect, or someone else in the thread).
    pub last_from: Option<String>,
    pub last_reply_at: Timestamp,
    pub replies: i64,
    pub unread: bool,
    pub done: bool,
    pub label: Option<Label>,
    /// The AI's reading of the latest reply; null until it is read (or for an automatic answer).
    pub reading: Option<Reading>,
    /// An answer in the thread waits for the user's approval.
    pub awaiting_approval: bool,
}

/// A page of threads, and the cursor of the next (null on the last page).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreadPage {
    pub threads: Vec<InboxThread>,
    pub next_cursor: Option<String>,
}

fn escalations(list: Option<&str>) -> Vec<Escalation> {
    list.and_then(|list| serde_json::from_str(list).ok())
        .unwrap_or_default()
}

fn listed(row: ThreadRow) -> InboxThread {
    let reading = match (row.sentiment, row.action) {
        (Some(sentiment), Some(action)) => Some(Reading {
            sentiment,
            action,
            escalations: escalations(row.escalations.as_deref()),
        }),
        _ => None,
    };
    InboxThread {
        id: row.id,
        prospect: row.to_email,
        business_name: row.business_name,
        campaign_id: row.campaign_id,
        campaign_name: row.campaign_name,
        sender_id: row.config_id,
        subject: row.subject,
        excerpt: row.excerpt,
        last_from: row.last_from,
        last_reply_at: Timestamp(row.last_reply_at),
        replies: row.replies,
        unread: row.unread,
        done: row.done,
        label: row.label,
        reading,
        awaiting_approval: row.awaiting,
    }
}

/// A cursor is the last row's reply time and id.
fn parse_cursor(cursor: &str) -> Option<(i64, i64)> {
    let (at, id) = cursor.split_once('.')?;
    Some((at.parse().ok()?, id.parse().ok()?))
}

/// The user's conversations, the latest reply first, a page at a time.
#[utoipa::path(get, path = "/api/inbox/threads", tag = "inbox", params(ThreadFilters), responses(
    (status = 200, body = ThreadPage),
    (status = 422, description = "An unknown filter or label, or a cursor that is not one", body = ErrorBody)))]
pub async fn threads(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Query(filters): Query<ThreadFilters>,
) -> ApiResult<Json<ThreadPage>> {
    let only = match filters.filter.as_deref().filter(|value| !value.is_empty()) {
        Some(value) => Some(value.parse::<Only>().map_err(|_| {
            ApiError::validation("filter must be unread, interested, awaiting or escalated")
        })?),
        None => None,
    };
    let label = parse_label(filters.label.as_deref())?;
    let after = match filters.cursor.as_deref().filter(|value| !value.is_empty()) {
        Some(cursor) => Some(
            parse_cursor(cursor).ok_or_else(|| ApiError::validation("The cursor is not valid"))?,
        ),
        None => None,
    };
    let query = ThreadQuery {
        done: filters.done.unwrap_or(false),
        only,
        campaign_id: filters.campaign_id,
        sender_id: filters.sender_id,
        label,
        search: filters.q.filter(|text| !text.trim().is_empty()),
        after,
    };
    let limit = filters.limit.unwrap_or(PAGE).clamp(1, PAGE_MAX);
    let mut rows = state
        .ctx
        .db
        .inbox()
        .list_threads(user.id, &query, limit + 1)
        .await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last()
            .map(|row| format!("{}.{}", row.last_reply_at, row.id))
    } else {
        None
    };
    Ok(Json(ThreadPage {
        threads: rows.into_iter().map(listed).collect(),
        next_cursor,
    }))
}

fn parse_label(label: Option<&str>) -> ApiResult<Option<Label>> {
    match label.filter(|value| !value.is_empty()) {
        Some(value) => value.parse::<Label>().map(Some).map_err(|_| {
            ApiError::validation(
                "label must be interested, meeting_booked, not_interested, wrong_person or out_of_office",
            )
        }),
        None => Ok(None),
    }
}

/// An answer drafted to a reply.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DraftedAnswer {
    pub id: i64,
    pub subject: String,
    pub body: String,
    /// `awaiting_approval`, `queued` or `discarded`.
    pub status: String,
    /// Why it waits for approval.
    pub why: Option<String>,
    pub automatic: bool,
}

/// One message of a conversation, either way.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreadMessage {
    /// `sent` (the user's side) or `received` (the prospect's).
    pub direction: String,
    /// Sent: `first`, `follow_up` or `answer`; received: `reply` or `auto_reply`.
    pub kind: String,
    /// A follow-up's or an answer's number in the thread.
    pub step: Option<i32>,
    pub id: i64,
    pub from: Option<String>,
    pub to: Option<String>,
    pub subject: String,
    /// Sent: the HTML body; received: the text.
    pub body: String,
    /// Sent: the message's status (queued, sending, sent, failed, skipped).
    pub status: Option<MessageStatus>,
    pub error: Option<String>,
    pub at: Timestamp,
    /// Received: the AI's reading, with its confidence (0 to 1), language and summary.
    pub reading: Option<Reading>,
    pub confidence: Option<f64>,
    pub language: Option<String>,
    pub summary: Option<String>,
    /// Received: the answer drafted to it (waiting, queued or discarded).
    pub answer: Option<DraftedAnswer>,
}

/// A conversation and its messages, oldest first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ThreadView {
    pub thread: InboxThread,
    pub messages: Vec<ThreadMessage>,
}

fn sent_message(message: SentInThread) -> ThreadMessage {
    ThreadMessage {
        direction: "sent".into(),
        kind: message.kind.as_str().into(),
        step: (message.kind != MessageKind::First).then_some(message.step),
        id: message.id,
        from: None,
        to: Some(message.to_email),
        subject: message.subject,
        body: message.html_body.unwrap_or_default(),
        status: Some(message.status),
        error: message.error,
        at: Timestamp(message.sent_at.unwrap_or(message.created_at)),
        reading: None,
        confidence: None,
        language: None,
        summary: None,
        answer: None,
    }
}

fn received_message(message: ReceivedInThread) -> ThreadMessage {
    let reading = match (message.sentiment, message.action) {
        (Some(sentiment), Some(action)) => Some(Reading {
            sentiment,
            action,
            escalations: escalations(message.escalations.as_deref()),
        }),
        _ => None,
    };
    let answer = message.answer_id.map(|id| DraftedAnswer {
        id,
        subject: message.answer_subject.unwrap_or_default(),
        body: message.answer_body.unwrap_or_default(),
        status: message.answer_status.unwrap_or_default(),
        why: message.answer_why,
        automatic: message.answer_automatic.unwrap_or(false),
    });
    ThreadMessage {
        direction: "received".into(),
        kind: message.kind,
        step: None,
        id: message.id,
        from: message.from_email,
        to: None,
        subject: message.subject,
        body: message.body,
        status: None,
        error: None,
        at: Timestamp(message.received_at),
        reading,
        confidence: message.confidence,
        language: message.language,
        summary: message.summary,
        answer,
    }
}

/// One conversation with every message both ways, in order; opening it marks it read.
#[utoipa::path(get, path = "/api/inbox/threads/{id}", tag = "inbox", params(("id" = i64, Path)), responses(
    (status = 200, body = ThreadView),
    (status = 404, description = "Conversation not found", body = ErrorBody)))]
pub async fn thread(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<ThreadView>> {
    let ctx = &state.ctx;
    let read = ThreadChange {
        read: Some(true),
        ..ThreadChange::default()
    };
    if !change(ctx, user.id, id, read).await? {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let row = ctx
        .db
        .inbox()
        .find_thread(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let sent = ctx.db.inbox().sent_in_thread(&row).await?;
    let received = ctx.db.inbox().received_in_thread(row.id).await?;
    let mut messages: Vec<ThreadMessage> = sent
        .into_iter()
        .map(sent_message)
        .chain(received.into_iter().map(received_message))
        .collect();
    messages.sort_by_key(|message| message.at.0);
    Ok(Json(ThreadView {
        thread: listed(row),
        messages,
    }))
}

/// What the user marks on a conversation.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThreadUpdate {
    read: Option<bool>,
    done: Option<bool>,
    /// A label, or null to take it off.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<Label>)]
    label: Option<Option<String>>,
}

/// A field that is present, even as null, is `Some`.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// Marks a conversation read or unread, done or not, or labels it (a label sets the contact's interest; "not
/// interested" and "wrong person" stop the prospect's follow-ups; "meeting booked" counts in the campaign's
/// analytics). Answers the thread as it is now.
#[utoipa::path(patch, path = "/api/inbox/threads/{id}", tag = "inbox", params(("id" = i64, Path)),
    request_body = ThreadUpdate, responses(
    (status = 200, body = InboxThread),
    (status = 404, description = "Conversation not found", body = ErrorBody),
    (status = 422, description = "An unknown label, or nothing to change", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<ThreadUpdate>,
) -> ApiResult<Json<InboxThread>> {
    let label = match request.label {
        Some(label) => Some(parse_label(label.as_deref())?),
        None => None,
    };
    let wanted = ThreadChange {
        read: request.read,
        done: request.done,
        label,
    };
    if wanted == ThreadChange::default() {
        return Err(ApiError::validation(
            "Nothing to change: send read, done or label",
        ));
    }
    let ctx = &state.ctx;
    if !change(ctx, user.id, id, wanted).await? {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let row = ctx
        .db
        .inbox()
        .find_thread(id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(listed(row)))
}

/// The user's answer, as HTML (the reply box's text becomes paragraphs).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThreadReply {
    body: String,
}

/// The answer queued.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuedAnswer {
    pub message_id: i64,
    /// `queued`: it goes out through the thread's sender within moments.
    pub status: MessageStatus,
}

fn inbox_error(error: InboxError) -> ApiError {
    match error {
        InboxError::NotFound => ApiError::not_found(NOT_FOUND),
        InboxError::Empty | InboxError::TooLong => ApiError::validation(error.to_string()),
        InboxError::Suppressed(_) | InboxError::Conflict => {
            ApiError::new(StatusCode::CONFLICT, "not_now", error.to_string())
        }
        InboxError::Store(error) => error.into(),
        InboxError::Queue(error) => error.into(),
        InboxError::Draft(error) => ApiError::internal(error),
    }
}

/// Answers a conversation from the app: to the prospect the campaign emailed, through the thread's sender, threaded
/// (In-Reply-To and References), within the monthly quota and the sender's daily cap; never to a suppressed address.
#[utoipa::path(post, path = "/api/inbox/threads/{id}/reply", tag = "inbox", params(("id" = i64, Path)),
    request_body = ThreadReply, responses(
    (status = 200, body = QueuedAnswer),
    (status = 404, description = "Conversation not found", body = ErrorBody),
    (status = 409, description = "The address is suppressed, or another answer was sent at the same moment", body = ErrorBody),
    (status = 422, description = "The answer must not be empty, or is too long", body = ErrorBody)))]
pub async fn reply(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(request): JsonBody<ThreadReply>,
) -> ApiResult<Json<QueuedAnswer>> {
    let message_id = answer(&state.ctx, user.id, id, &request.body)
        .await
        .map_err(inbox_error)?;
    Ok(Json(QueuedAnswer {
        message_id,
        status: MessageStatus::Queued,
    }))
}

/// A draft to start the answer from.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswerDraft {
    pub subject: String,
    pub body: String,
    /// `offline`, or the model that wrote it.
    pub writer: String,
}

/// Drafts an answer to the conversation's latest reply (the configured model, else the offline writer; in the reply's
/// language, from the campaign's education material). Nothing is stored or sent.
#[utoipa::path(post, path = "/api/inbox/threads/{id}/draft", tag = "inbox", params(("id" = i64, Path)), responses(
    (status = 200, body = AnswerDraft),
    (status = 404, description = "Conversation not found", body = ErrorBody)))]
pub async fn write_draft(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<AnswerDraft>> {
    let writer = Writer::from_settings(&state.ctx.settings.ai).map_err(ApiError::internal)?;
    let (drafted, written_by) = draft(&state.ctx, &writer, user.id, id)
        .await
        .map_err(inbox_error)?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(AnswerDraft {
        subject: drafted.subject,
        body: drafted.body,
        writer: written_by,
    }))
}
