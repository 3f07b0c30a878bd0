//! The unified inbox (issue 34): every conversation with a prospect who answered, across campaigns and senders, read
//! and answered in the app. A thread is a campaign's first email to a business with its follow-ups, answers and the
//! replies to any of them (filed by `inbound` as they arrive). The user opens it (which marks it read), answers it
//! (through the thread's sender, threaded, within the quota, never to a suppressed address), and labels it: a label
//! sets the contact's interest, "not interested" and "wrong person" stop the prospect's follow-ups, and "meeting
//! booked" counts in the campaign's analytics.

pub mod store;

use crate::Context;
use crate::accounts::normalize_email;
use crate::campaigns::personalise::{html_text, sanitize_html};
use crate::platform::db::StoreError;
use crate::platform::queue::QueueError;
use crate::responses::answer::answer_subject;
use crate::sending::messages::MessageKind;
use crate::sending::outgoing::{Dispatch, Letter, Outgoing};
use crate::writing::ai::Draft;
use crate::writing::ai::writer::Writer;

crate::capability_store!(
    /// The inbox capability's reads and writes: `db.inbox()`.
    InboxStore,
    inbox
);

crate::text_enum! {
    /// What the user says a conversation came to.
    pub enum Label ("label") {
        Interested = "interested",
        MeetingBooked = "meeting_booked",
        NotInterested = "not_interested",
        WrongPerson = "wrong_person",
        OutOfOffice = "out_of_office",
    }
}

impl Label {
    /// The contact's interest this label shows, if any.
    fn interest(self) -> Option<&'static str> {
        match self {
            Label::Interested | Label::MeetingBooked => Some("interested"),
            Label::NotInterested | Label::WrongPerson => Some("not_interested"),
            Label::OutOfOffice => None,
        }
    }

    /// Why the prospect's follow-ups stop, for a label that stops them.
    fn stops_follow_ups(self) -> Option<&'static str> {
        match self {
            Label::NotInterested => Some("Not interested (marked in the inbox)"),
            Label::WrongPerson => Some("Wrong person (marked in the inbox)"),
            _ => None,
        }
    }
}

crate::text_enum! {
    /// The inbox's quick filters.
    pub enum Only ("filter") {
        Unread = "unread",
        Interested = "interested",
        Awaiting = "awaiting",
        Escalated = "escalated",
    }
}

/// Which threads a page lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadQuery {
    /// Threads marked done (else the others).
    pub done: bool,
    pub only: Option<Only>,
    pub campaign_id: Option<i64>,
    pub sender_id: Option<i64>,
    pub label: Option<Label>,
    /// Words in the prospect's address, the business's name, the subject or a reply.
    pub search: Option<String>,
    /// After this (last reply time, id): the cursor of the page before.
    pub after: Option<(i64, i64)>,
}

/// Why an answer from the inbox was not sent.
#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    #[error("Conversation not found")]
    NotFound,
    #[error("The answer must not be empty")]
    Empty,
    #[error("The answer is too long (at most {MAX_ANSWER_CHARS} characters)")]
    TooLong,
    #[error("{0} unsubscribed, bounced or reported spam: nothing more is sent to this address")]
    Suppressed(String),
    #[error(
        "Another answer was sent in this conversation at the same moment; reload it and try again"
    )]
    Conflict,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Queue(#[from] QueueError),
    #[error("The draft could not be written: {0}")]
    Draft(anyhow::Error),
}

/// An answer typed in the inbox is at most this long.
pub const MAX_ANSWER_CHARS: usize = 20_000;

/// Sends the user's answer in a thread: to the address the campaign emailed (never to whoever else wrote), through
/// the thread's sender, as the thread's next answer (`In-Reply-To` the latest reply, `References` the first email),
/// queued now; it counts against the monthly quota and the sender's daily cap when it is claimed. Returns the
/// message's id.
pub async fn answer(
    ctx: &Context,
    user_id: i64,
    thread_id: i64,
    body_html: &str,
) -> Result<i64, InboxError> {
    let thread = ctx
        .db
        .inbox()
        .find_thread(thread_id, user_id)
        .await?
        .ok_or(InboxError::NotFound)?;
    let campaign_id = thread.campaign_id.ok_or(InboxError::NotFound)?;
    if body_html.chars().count() > MAX_ANSWER_CHARS {
        return Err(InboxError::TooLong);
    }
    let body = sanitize_html(body_html);
    if html_text(&body).trim().is_empty() {
        return Err(InboxError::Empty);
    }
    let address = normalize_email(&thread.to_email);
    let addresses = [address.clone()];
    let suppressed = !ctx
        .db
        .sending()
        .suppressed_among(&addresses)
        .await?
        .is_empty()
        || !ctx
            .db
            .sending()
            .suppressed_for_user(user_id, &addresses)
            .await?
            .is_empty();
    if suppressed {
        return Err(InboxError::Suppressed(thread.to_email));
    }
    let step = ctx
        .db
        .sending()
        .next_answer_step(campaign_id, thread.business_id)
        .await?;
    let in_reply_to = ctx.db.inbox().last_reply_message_id(thread.id).await?;
    let subject = answer_subject(&thread.subject);
    let outgoing = Outgoing {
        user_id,
        campaign_id: Some(campaign_id),
        config_id: thread.config_id,
        pooled: false,
        kind: MessageKind::Answer,
    };
    let letter = Letter {
        to_email: &thread.to_email,
        business_id: thread.business_id,
        step,
        subject: &subject,
        html_body: Some(&body),
        in_reply_to: in_reply_to.as_deref(),
        ..Letter::default()
    };
    let written = outgoing.write(&ctx.db, &[letter], ctx.now_ms()).await?;
    // Taken: an answer with the same number was written a moment ago (a double submit, or the autopilot).
    let message_id = *written.first().ok_or(InboxError::Conflict)?;
    // The answer by hand replaces any draft waiting in the thread: approving one later would answer twice.
    ctx.db
        .responses()
        .retire_thread_drafts(thread.id, user_id, ctx.now_ms())
        .await?;
    let dispatch = Dispatch {
        tag: "inbox",
        ..Dispatch::default()
    };
    outgoing.queue(&ctx.queue, &[message_id], dispatch).await?;
    metrics::counter!("outreach_auto_replies_sent_total", "mode" => "inbox").increment(1);
    Ok(message_id)
}

/// A draft answer to the thread's latest reply, to edit before sending, and who wrote it (the configured model or
/// the offline writer). None when the thread has no reply to answer.
pub async fn draft(
    ctx: &Context,
    writer: &Writer,
    user_id: i64,
    thread_id: i64,
) -> Result<Option<(Draft, String)>, InboxError> {
    let thread = ctx
        .db
        .inbox()
        .find_thread(thread_id, user_id)
        .await?
        .ok_or(InboxError::NotFound)?;
    let Some(inbound_id) = thread.last_inbound_id else {
        return Ok(None);
    };
    crate::responses::draft_for_reply(ctx, writer, inbound_id)
        .await
        .map_err(InboxError::Draft)
}

/// What the user changes on a thread; unset fields stay as they are (`label: Some(None)` takes the label off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ThreadChange {
    pub read: Option<bool>,
    pub done: Option<bool>,
    pub label: Option<Option<Label>>,
}

/// Marks a thread read, unread or done, or labels it; a new label sets the contact's interest and may stop the
/// prospect's follow-ups. Whether the thread is the user's.
pub async fn change(
    ctx: &Context,
    user_id: i64,
    thread_id: i64,
    change: ThreadChange,
) -> Result<bool, StoreError> {
    let Some(thread) = ctx.db.inbox().find_thread(thread_id, user_id).await? else {
        return Ok(false);
    };
    let label = change.label.unwrap_or(thread.label);
    let unread = change.read.map_or(thread.unread, |read| !read);
    let done = change.done.unwrap_or(thread.done);
    if !ctx
        .db
        .inbox()
        .set_thread_state(thread.id, user_id, unread, done, label)
        .await?
    {
        return Ok(false);
    }
    if let Some(label) = label.filter(|label| Some(*label) != thread.label) {
        if let Some(interest) = label.interest() {
            ctx.db
                .responses()
                .set_contact_interest(user_id, &normalize_email(&thread.to_email), interest)
                .await?;
        }
        if let Some(reason) = label.stops_follow_ups() {
            ctx.db
                .followups()
                .stop_follow_ups(thread.root_message_id, user_id, reason, ctx.now_ms())
                .await?;
        }
    }
    Ok(true)
}
