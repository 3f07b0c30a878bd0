//! Email responses (issue 20, B §2.9, §3 Email response): every prospect's reply is read by a classifier (the
//! configured model, or the offline one, which needs no key) for its sentiment, the action it calls for, how sure
//! the reading is, its language, a one-line summary and the topics a person must handle (escalations). A reply that
//! asks to stop puts the address on the suppression list at once. Where the campaign allows it and it is safe, an
//! answer is drafted and sent by itself after the campaign's reply timing; every other draft waits for the user's
//! approval. A prospect's reply is data: no classifier or writer ever follows what it says.

pub mod answer;
pub mod classification;
pub mod eval;
pub mod labelled;
pub mod learned;
pub mod lexicon;
pub mod model;
pub mod offline;
pub mod store;
pub mod text;

use std::time::Instant;

use chrono::NaiveDate;

use self::answer::AnswerBrief;
pub use self::classification::{Action, Classification, Escalation, Sentiment};
use self::store::{AnswerStatus, NewAnswer, Reading, ReplyContext};
use crate::Context;
use crate::campaigns::ai_settings::{
    CertaintyThreshold, HumanApproval, ReplyTiming, SalesAggressiveness,
};
use crate::platform::clock::DAY_MS;
use crate::platform::faults;
use crate::sending::messages::MessageKind;
use crate::sending::outgoing::{Dispatch, Letter, Outgoing};
use crate::sending::window::recipient_zone;
use crate::writing::ai::writer::Writer;
use crate::writing::ai::{AiError, Draft};

/// Answers of a campaign that wait for approval under the default policy.
pub const APPROVED_FIRST: i64 = 10;

/// Answers the AI sends by itself to one prospect at most.
pub const AUTOMATIC_PER_THREAD: i64 = 2;

/// Why a change to an answer is refused.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("Answer not found")]
    NotFound,
    #[error("This answer is no longer waiting for approval")]
    NotWaiting,
    #[error("The subject and the answer must not be empty")]
    Empty,
    #[error("The reply this answers is gone")]
    ReplyGone,
    /// The prospect may not be written to any more: the draft is discarded, nothing is sent.
    #[error("This answer will not be sent: {0}. The draft was discarded.")]
    NotMailable(&'static str),
    #[error(transparent)]
    Store(#[from] crate::platform::db::StoreError),
    #[error(transparent)]
    Queue(#[from] crate::platform::queue::QueueError),
}

/// Reads a reply with the configured model, or the offline classifier when none is configured or the model fails
/// (the reading then says why). The offline classifier's escalations are always added: a phrase such as "remove
/// me" or "ignore previous instructions" escalates whatever a model thought.
pub async fn read_reply(writer: &Writer, subject: &str, body: &str, today: NaiveDate) -> Reading {
    let started = Instant::now();
    let offline = offline::classify(subject, body, today);
    let reading = match writer {
        Writer::Offline => Reading {
            classification: offline.clone(),
            classifier: "offline".into(),
            note: None,
        },
        model_writer => {
            match model::classify(model_writer, subject, &text::own_text(body), today).await {
                Ok(mut classification) => {
                    for topic in &offline.escalations {
                        if !classification.escalations.contains(topic) {
                            classification.escalations.push(*topic);
                        }
                    }
                    Reading {
                        classification,
                        classifier: model_writer.name(),
                        note: None,
                    }
                }
                Err(error) => Reading {
                    classification: offline.clone(),
                    classifier: "offline".into(),
                    note: Some(format!(
                        "Read by the offline classifier: the AI model failed ({error})"
                    )),
                },
            }
        }
    };
    let classifier = if reading.classifier == "offline" {
        "offline"
    } else {
        "model"
    };
    metrics::histogram!("outreach_reply_classification_seconds", "classifier" => classifier)
        .record(started.elapsed().as_secs_f64());
    metrics::counter!("outreach_replies_classified_total", "classifier" => classifier,
        "sentiment" => reading.classification.sentiment.as_str(), "action" => reading.classification.action.as_str())
    .increment(1);
    reading
}

/// The `ClassifyReply` job: reads a reply once, applies what it means (a stop request suppresses the address, a
/// refusal stops the sequence, interest shows on the contact, "write in September" schedules the next follow-up
/// then), and for a reply that calls for an answer drafts one: queued by itself when every guard allows it, else
/// waiting for the user's approval.
pub async fn classify_reply(ctx: &Context, writer: &Writer, inbound_id: i64) -> anyhow::Result<()> {
    let Some(reply) = ctx.db.responses().reply_context(inbound_id).await? else {
        return Ok(());
    };
    let now = ctx.now_ms();
    let today = crate::platform::clock::date_of(now);
    let reading = read_reply(writer, &reply.subject, &reply.body, today).await;
    ctx.db
        .responses()
        .save_reading(reply.id, reply.user_id, &reading, now)
        .await?;
    apply_reading(ctx, &reply, &reading.classification).await?;
    // A positive reply may settle the campaign's A/B test (issue 81).
    if let Some(campaign_id) = reply.campaign_id
        && let Some(campaign) = ctx
            .db
            .campaigns()
            .find_campaign(campaign_id, reply.user_id)
            .await?
    {
        crate::tracking::variants::decide_winners(ctx, &campaign).await?;
    }
    if matches!(
        reading.classification.action,
        Action::Reply | Action::MarkInterested
    ) && reply.campaign_id.is_some()
    {
        answer_reply(ctx, writer, &reply, &reading.classification).await?;
    }
    Ok(())
}

/// What a reading means for the prospect, whatever is answered.
async fn apply_reading(
    ctx: &Context,
    reply: &ReplyContext,
    found: &Classification,
) -> anyhow::Result<()> {
    let now = ctx.now_ms();
    let address = reply
        .from_email
        .clone()
        .unwrap_or_else(|| reply.to_email.clone());
    if found.escalations.contains(&Escalation::Unsubscribe) {
        ctx.db
            .sending()
            .insert_unsubscribe(&crate::accounts::normalize_email(&address), "reply", now)
            .await?;
    }
    match found.action {
        Action::MarkInterested => {
            ctx.db
                .responses()
                .set_contact_interest(reply.user_id, &reply.to_email, "interested")
                .await?
        }
        Action::MarkNotInterested => {
            ctx.db
                .responses()
                .set_contact_interest(reply.user_id, &reply.to_email, "not_interested")
                .await?;
            ctx.db
                .followups()
                .stop_follow_ups(reply.message_id, reply.user_id, NOT_INTERESTED, now)
                .await?;
        }
        Action::ScheduleFollowup => {
            if let (Some(date), Some(campaign_id)) = (found.follow_up_on, reply.campaign_id) {
                let window = reply.window.window();
                let zone = recipient_zone(
                    reply.latitude,
                    reply.longitude,
                    reply.city.as_deref(),
                    window.time_zone,
                );
                let morning = date.and_hms_opt(9, 0, 0).expect("09:00 exists");
                let at = chrono::TimeZone::from_local_datetime(&zone, &morning)
                    .earliest()
                    .map_or(now, |time| time.timestamp_millis());
                ctx.db
                    .followups()
                    .schedule_follow_up(reply.message_id, campaign_id, at.max(now))
                    .await?;
            }
        }
        Action::Reply => {}
    }
    Ok(())
}

/// Why a follow-up sequence stopped when the prospect declined.
pub const NOT_INTERESTED: &str = "Not interested (their reply)";

/// Drafts an answer and queues it by itself or leaves it for approval.
async fn answer_reply(
    ctx: &Context,
    writer: &Writer,
    reply: &ReplyContext,
    found: &Classification,
) -> anyhow::Result<()> {
    let campaign_id = reply.campaign_id.expect("answers are for campaign replies");
    let (draft, written_by) = draft_answer(ctx, writer, reply, found).await?;
    let now = ctx.now_ms();
    let day_start = now - now.rem_euclid(DAY_MS);
    let counts = ctx
        .db
        .responses()
        .answer_counts(campaign_id, day_start, reply.business_id)
        .await?;
    let mut why = guard(reply, found, counts);
    // The day's cap holds in the database: replies read at the same moment take its answers one at a time.
    let day = now.div_euclid(DAY_MS);
    let cap = i64::from(reply.auto_reply_max_per_day.unwrap_or(DEFAULT_DAILY_CAP));
    let took = why.is_none()
        && ctx
            .db
            .responses()
            .take_automatic_answer(campaign_id, day, cap)
            .await?;
    if why.is_none() && !took {
        why = Some(cap_reached(cap));
    }
    let answer = NewAnswer {
        inbound_id: reply.id,
        user_id: reply.user_id,
        campaign_id: Some(campaign_id),
        subject: &draft.subject,
        body: &draft.body,
        why: why.as_deref(),
        writer: &written_by,
    };
    let Some(answer_id) = ctx.db.responses().insert_answer(&answer, now).await? else {
        if took {
            ctx.db
                .responses()
                .give_back_automatic_answer(campaign_id, day)
                .await?;
        }
        return Ok(());
    };
    if why.is_none() {
        let timing = reply.reply_timing.unwrap_or(ReplyTiming::Business);
        let spread = (reply.id.rem_euclid(97)) as f64 / 96.0;
        let send_at = now + timing.delay_minutes(spread) * 60_000;
        queue_answer(ctx, reply, answer_id, &draft, send_at).await?;
        metrics::counter!("outreach_auto_replies_sent_total", "mode" => "automatic").increment(1);
    }
    record_awaiting(ctx).await;
    Ok(())
}

/// Automatic answers a campaign sends a day unless its settings say otherwise.
const DEFAULT_DAILY_CAP: i32 = 20;

fn cap_reached(cap: i64) -> String {
    format!("Today's {cap} automatic answers for this campaign are sent")
}

/// The reason an answer waits for the user, or none when it may go by itself (the day's cap is taken for good
/// when the answer is written).
fn guard(
    reply: &ReplyContext,
    found: &Classification,
    counts: store::AnswerCounts,
) -> Option<String> {
    if let Some(other) = written_by_someone_else(reply) {
        return Some(format!(
            "Written by someone other than the prospect ({other}): a person decides whether to answer"
        ));
    }
    let certainty = reply
        .certainty_threshold
        .unwrap_or(CertaintyThreshold::Manual);
    let Some(minimum) = certainty.minimum() else {
        return Some("Automatic answers are off for this campaign (certainty: manual)".into());
    };
    // An automation's threshold as given (0.85 answers from 85%), else the certainty's.
    let minimum = reply
        .auto_reply_min_percent
        .map_or(minimum, |percent| f64::from(percent) / 100.0);
    if !found.escalations.is_empty() {
        let topics: Vec<&str> = found
            .escalations
            .iter()
            .map(|topic| topic.words())
            .collect();
        return Some(format!("A person should answer: {}", topics.join(", ")));
    }
    if found.confidence < minimum {
        return Some(format!(
            "The AI is {:.0}% sure; this campaign answers by itself from {:.0}%",
            found.confidence * 100.0,
            minimum * 100.0
        ));
    }
    let cap = i64::from(reply.auto_reply_max_per_day.unwrap_or(DEFAULT_DAILY_CAP));
    if counts.automatic_today >= cap {
        return Some(cap_reached(cap));
    }
    if counts.automatic_in_thread >= AUTOMATIC_PER_THREAD {
        return Some("This prospect was answered automatically twice already".into());
    }
    match reply.human_approval.unwrap_or(HumanApproval::FirstTen) {
        HumanApproval::Always => Some("This campaign approves every answer".into()),
        HumanApproval::FirstTen if counts.queued < APPROVED_FIRST => Some(format!(
            "The first {APPROVED_FIRST} answers of a campaign wait for your approval ({} sent so far)",
            counts.queued
        )),
        _ => None,
    }
}

/// The sender of a reply when it is not the address the campaign emailed (anyone can name a campaign email's
/// Message-ID in In-Reply-To).
fn written_by_someone_else(reply: &ReplyContext) -> Option<&str> {
    let from = reply.from_email.as_deref()?;
    (crate::accounts::normalize_email(from) != crate::accounts::normalize_email(&reply.to_email))
        .then_some(from)
}

/// An answer from the configured model, or the offline writer (when there is none or the model fails); the body
/// is sanitised either way.
async fn draft_answer(
    ctx: &Context,
    writer: &Writer,
    reply: &ReplyContext,
    found: &Classification,
) -> anyhow::Result<(Draft, String)> {
    let campaign_id = reply.campaign_id.expect("answers are for campaign replies");
    let mut education = Vec::new();
    if let Some(notes) = reply
        .ai_education_text
        .as_deref()
        .filter(|text| !text.trim().is_empty())
    {
        education.push(("notes".to_string(), notes.to_string()));
    }
    for file in ctx.db.campaigns().list_education_files(campaign_id).await? {
        education.push((file.name, file.extracted_text));
    }
    let thread = match reply.business_id {
        Some(business_id) => {
            ctx.db
                .responses()
                .thread_texts(campaign_id, business_id)
                .await?
        }
        None => Vec::new(),
    };
    let user = ctx.db.accounts().find_user(reply.user_id).await?;
    let sender_name = reply
        .email_from_name
        .clone()
        .or_else(|| user.as_ref().map(|user| user.full_name()))
        .unwrap_or_default();
    let brief = AnswerBrief {
        language: found.language.clone(),
        action: found.action,
        aggressiveness: reply
            .sales_aggressiveness
            .unwrap_or(SalesAggressiveness::Moderate),
        sender_name,
        business_name: reply.business_name.clone(),
        education,
        thread,
        thread_subject: reply.thread_subject.clone(),
        reply_text: text::own_text(&reply.body),
    };
    let (mut draft, written_by) = match writer {
        Writer::Offline => (answer::offline(&brief), "offline".to_string()),
        model_writer => match model::draft(model_writer, &brief)
            .await
            .and_then(|draft| fit_to_send(draft, &brief.language))
        {
            Ok(draft) => (draft, model_writer.name()),
            Err(error) => (
                answer::offline(&brief),
                format!("offline (the AI model failed: {error})"),
            ),
        },
    };
    // The subject is the thread's, whatever a model wrote: nothing of the reply's own subject is echoed.
    draft.subject = answer::answer_subject(&reply.thread_subject);
    Ok((
        Draft {
            subject: draft.subject.trim().to_string(),
            body: crate::campaigns::personalise::sanitize_html(&draft.body),
        },
        written_by,
    ))
}

/// A model's draft as it may be used: in the reply's language, and giving no instructions of its own (a model
/// steered by the reply would write them); else the model failed, and the offline writer answers.
fn fit_to_send(draft: Draft, language: &str) -> Result<Draft, AiError> {
    let text = crate::sending::compose::html_to_text(&draft.body);
    let written_in = offline::language(&text);
    if written_in != language {
        return Err(AiError::Failed(format!(
            "the model answered in {written_in}, not in the reply's {language}"
        )));
    }
    if offline::instructs(&text) {
        return Err(AiError::Failed(
            "the model's answer gives instructions of its own".into(),
        ));
    }
    Ok(draft)
}

/// Writes an answer as a message of its campaign (in the thread, through the sender of the email it answers) and
/// queues its sending for `send_at`.
async fn queue_answer(
    ctx: &Context,
    reply: &ReplyContext,
    answer_id: i64,
    draft: &Draft,
    send_at: i64,
) -> Result<i64, AnswerError> {
    let campaign_id = reply.campaign_id.ok_or(AnswerError::ReplyGone)?;
    let outgoing = Outgoing {
        user_id: reply.user_id,
        campaign_id: Some(campaign_id),
        config_id: reply.config_id,
        pooled: false,
        kind: MessageKind::Answer,
    };
    let step = ctx
        .db
        .sending()
        .next_answer_step(campaign_id, reply.business_id)
        .await?;
    // Only the address the campaign emailed is ever answered, whoever wrote in the thread.
    let letter = Letter {
        to_email: &reply.to_email,
        business_id: reply.business_id,
        step,
        subject: &draft.subject,
        html_body: Some(&draft.body),
        in_reply_to: reply.header_message_id.as_deref(),
        ..Letter::default()
    };
    let now = ctx.now_ms();
    let message_id = *outgoing
        .write(&ctx.db, &[letter], now)
        .await?
        .first()
        .ok_or(AnswerError::NotWaiting)?;
    if !ctx
        .db
        .responses()
        .queue_answer(
            answer_id,
            reply.user_id,
            message_id,
            &draft.subject,
            &draft.body,
            now,
        )
        .await?
    {
        return Err(AnswerError::NotWaiting);
    }
    faults::point_with("answer-queued", || answer_id.to_string());
    // Due now: at once (the queue keeps its own time); later: when it is due.
    let dispatch = Dispatch {
        tag: "answer",
        not_before: Some(send_at).filter(|at| *at > now),
        ..Dispatch::default()
    };
    outgoing.queue(&ctx.queue, &[message_id], dispatch).await?;
    Ok(message_id)
}

/// The user approves a draft (as edited): it is sent now, in the thread, within the campaign's limits and window.
pub async fn approve(
    ctx: &Context,
    user_id: i64,
    answer_id: i64,
    edited: Option<Draft>,
) -> Result<i64, AnswerError> {
    let answer = ctx
        .db
        .responses()
        .find_answer(answer_id, user_id)
        .await?
        .ok_or(AnswerError::NotFound)?;
    if answer.status != AnswerStatus::AwaitingApproval {
        return Err(AnswerError::NotWaiting);
    }
    let draft = edited.unwrap_or(Draft {
        subject: answer.subject.clone(),
        body: answer.body.clone(),
    });
    let draft = Draft {
        subject: draft.subject.trim().to_string(),
        body: crate::campaigns::personalise::sanitize_html(&draft.body),
    };
    if draft.subject.is_empty()
        || crate::campaigns::personalise::html_text(&draft.body)
            .trim()
            .is_empty()
    {
        return Err(AnswerError::Empty);
    }
    let reply = ctx
        .db
        .responses()
        .reply_context(answer.inbound_id)
        .await?
        .ok_or(AnswerError::ReplyGone)?;
    if let Some(why) = ctx
        .db
        .sending()
        .why_not_mailable(user_id, &reply.to_email)
        .await?
    {
        ctx.db
            .responses()
            .discard_answer(answer_id, user_id, ctx.now_ms())
            .await?;
        record_awaiting(ctx).await;
        return Err(AnswerError::NotMailable(why));
    }
    let message_id = queue_answer(ctx, &reply, answer_id, &draft, ctx.now_ms()).await?;
    metrics::counter!("outreach_auto_replies_sent_total", "mode" => "approved").increment(1);
    record_awaiting(ctx).await;
    Ok(message_id)
}

/// The user discards a draft: nothing is sent.
pub async fn discard(ctx: &Context, user_id: i64, answer_id: i64) -> Result<(), AnswerError> {
    ctx.db
        .responses()
        .find_answer(answer_id, user_id)
        .await?
        .ok_or(AnswerError::NotFound)?;
    if !ctx
        .db
        .responses()
        .discard_answer(answer_id, user_id, ctx.now_ms())
        .await?
    {
        return Err(AnswerError::NotWaiting);
    }
    record_awaiting(ctx).await;
    Ok(())
}

/// A draft answer to a kept reply, for the user to edit (the inbox's reply box): read again and written as an
/// automatic answer would be, by the configured model or the offline writer, in the reply's language. None when the
/// reply is gone or answers no campaign email.
pub async fn draft_for_reply(
    ctx: &Context,
    writer: &Writer,
    inbound_id: i64,
) -> anyhow::Result<Option<(Draft, String)>> {
    let Some(reply) = ctx.db.responses().reply_context(inbound_id).await? else {
        return Ok(None);
    };
    if reply.campaign_id.is_none() {
        return Ok(None);
    }
    let today = crate::platform::clock::date_of(ctx.now_ms());
    let reading = read_reply(writer, &reply.subject, &reply.body, today).await;
    draft_answer(ctx, writer, &reply, &reading.classification)
        .await
        .map(Some)
}

/// What the Responses screen's test dialog shows: how a reply would be read, the answer that would be drafted (for a
/// reply that calls for one), and what would happen to it. Nothing is stored or sent.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    pub reading: Reading,
    pub draft: Option<(Draft, String)>,
    pub decision: String,
}

/// Reads a reply typed in the test dialog as if it answered an email of `campaign` (its AI settings and
/// education; none: the defaults, no education).
pub async fn test_reply(
    ctx: &Context,
    writer: &Writer,
    user_id: i64,
    campaign: Option<&crate::campaigns::CampaignRow>,
    from: &str,
    subject: &str,
    body: &str,
) -> anyhow::Result<TestOutcome> {
    let now = ctx.now_ms();
    let reading = read_reply(writer, subject, body, crate::platform::clock::date_of(now)).await;
    let settings = campaign.map(|row| row.ai_settings).unwrap_or_default();
    let reply = ReplyContext {
        id: 0,
        user_id,
        message_id: 0,
        subject: subject.to_string(),
        body: body.to_string(),
        from_email: Some(from.to_string()),
        header_message_id: None,
        received_at: now,
        campaign_id: campaign.map(|row| row.id),
        business_id: None,
        to_email: from.to_string(),
        // The dialog's typed subject stands for the thread's (there is no email it answers).
        thread_subject: subject.to_string(),
        config_id: None,
        business_name: None,
        ai_education_text: campaign.and_then(|row| row.ai_education_text.clone()),
        email_from_name: campaign.and_then(|row| row.email_from_name.clone()),
        sales_aggressiveness: Some(settings.sales_aggressiveness),
        certainty_threshold: Some(settings.certainty_threshold),
        reply_timing: Some(settings.reply_timing),
        human_approval: Some(settings.human_approval),
        auto_reply_max_per_day: Some(settings.auto_reply_max_per_day),
        auto_reply_min_percent: settings.min_confidence_percent,
        window: campaign.map(|row| row.window.clone()).unwrap_or_default(),
        latitude: None,
        longitude: None,
        city: None,
    };
    let found = &reading.classification;
    let answers = matches!(found.action, Action::Reply | Action::MarkInterested);
    let (draft, decision) = match (answers, campaign) {
        (false, _) => (
            None,
            match found.action {
                Action::ScheduleFollowup => {
                    "No answer: the next follow-up is scheduled for when they asked".to_string()
                }
                _ => "No answer: their follow-ups stop".to_string(),
            },
        ),
        (true, None) => (
            None,
            "Choose a campaign to see the answer it would draft".to_string(),
        ),
        (true, Some(row)) => {
            let drafted = draft_answer(ctx, writer, &reply, found).await?;
            let day_start = now - now.rem_euclid(DAY_MS);
            let counts = ctx
                .db
                .responses()
                .answer_counts(row.id, day_start, None)
                .await?;
            let decision = match guard(&reply, found, counts) {
                Some(why) => format!("Waits for your approval: {why}"),
                None => format!(
                    "Sent by itself about {} minutes after the reply, inside the sending window",
                    settings.reply_timing.delay_minutes(0.5)
                ),
            };
            (Some(drafted), decision)
        }
    };
    Ok(TestOutcome {
        reading,
        draft,
        decision,
    })
}

/// The approvals gauge, after a change (a failed count leaves the last value).
async fn record_awaiting(ctx: &Context) {
    if let Ok(waiting) = ctx.db.responses().answers_awaiting().await {
        metrics::gauge!("outreach_reply_approvals_waiting").set(waiting as f64);
    }
}
