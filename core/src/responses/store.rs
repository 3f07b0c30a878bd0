//! Replies' readings and answers as stored.

use crate::campaigns::ai_settings::{
    CertaintyThreshold, HumanApproval, ReplyTiming, SalesAggressiveness,
};
use crate::platform::clock::Timestamp;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::platform::window::WindowColumns;
use crate::{on_db, on_writer};

use super::classification::{Action, Classification, Escalation, Sentiment};

crate::capability_store!(
    /// The responses capability's reads and writes: `db.responses()`.
    ResponsesStore,
    responses
);

/// A reply with what reading and answering it needs: the message it answers and that message's campaign.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReplyContext {
    pub id: i64,
    pub user_id: i64,
    /// The sent message it answers.
    pub message_id: i64,
    pub subject: String,
    pub body: String,
    pub from_email: Option<String>,
    pub header_message_id: Option<String>,
    pub received_at: i64,
    pub campaign_id: Option<i64>,
    pub business_id: Option<i64>,
    /// The address the campaign emailed: the only one an answer goes to.
    pub to_email: String,
    /// The subject of the email it answers: an answer's subject is taken from the thread, never from the reply.
    pub thread_subject: String,
    pub config_id: Option<i64>,
    pub business_name: Option<String>,
    pub ai_education_text: Option<String>,
    pub email_from_name: Option<String>,
    pub sales_aggressiveness: Option<SalesAggressiveness>,
    pub certainty_threshold: Option<CertaintyThreshold>,
    pub reply_timing: Option<ReplyTiming>,
    pub human_approval: Option<HumanApproval>,
    pub auto_reply_max_per_day: Option<i32>,
    pub auto_reply_min_percent: Option<i32>,
    #[sqlx(flatten)]
    pub window: WindowColumns,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: Option<String>,
}

/// A reading as stored, with who read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub classification: Classification,
    /// `offline`, or the model that read it.
    pub classifier: String,
    /// Why the offline classifier read it although a model is configured.
    pub note: Option<String>,
}

crate::text_enum! {
    /// Where an answer to a reply is: waiting for the user, queued as a message (which then has a state of its
    /// own), or discarded by the user.
    pub enum AnswerStatus ("answer status") {
        AwaitingApproval = "awaiting_approval",
        Queued = "queued",
        Discarded = "discarded",
    }
}

/// An answer to a reply.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AnswerRow {
    pub id: i64,
    pub inbound_id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub subject: String,
    pub body: String,
    pub status: AnswerStatus,
    pub why: Option<String>,
    pub automatic: bool,
    pub writer: String,
    pub message_id: Option<i64>,
    pub created_at: i64,
}

/// A new answer: awaiting approval (with why), or queued by itself.
#[derive(Debug, Clone)]
pub struct NewAnswer<'a> {
    pub inbound_id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub subject: &'a str,
    pub body: &'a str,
    pub why: Option<&'a str>,
    pub writer: &'a str,
}

/// A campaign's queued answers: in all, and those sent without approval today and to one prospect.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct AnswerCounts {
    pub queued: i64,
    pub automatic_today: i64,
    pub automatic_in_thread: i64,
}

/// A reply as the Responses screen lists it, with its reading and answer.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecentRow {
    pub id: i64,
    pub from_email: Option<String>,
    pub subject: String,
    pub body: String,
    pub received_at: i64,
    pub message_id: Option<i64>,
    pub answered_subject: Option<String>,
    pub campaign_id: Option<i64>,
    pub sentiment: Option<Sentiment>,
    pub action: Option<Action>,
    pub confidence: Option<f64>,
    pub language: Option<String>,
    pub summary: Option<String>,
    pub escalations: Option<String>,
    pub follow_up_on: Option<String>,
    pub classifier: Option<String>,
    pub note: Option<String>,
    pub answer_id: Option<i64>,
    pub answer_subject: Option<String>,
    pub answer_body: Option<String>,
    pub answer_status: Option<AnswerStatus>,
    pub answer_why: Option<String>,
    pub answer_automatic: Option<bool>,
    pub answer_writer: Option<String>,
    pub answer_message_status: Option<String>,
    pub answer_sent_at: Option<i64>,
}

/// A user's replies, campaign emails sent, answers sent, and answers awaiting approval.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Totals {
    pub replies: i64,
    pub sent: i64,
    pub answers_sent: i64,
    pub awaiting: i64,
}

impl ResponsesStore<'_> {
    /// Prospects' replies received before `before` that no classifier has read.
    pub async fn unread_replies(&self, before: i64) -> StoreResult<Vec<i64>> {
        let sql = RESPONSE_UNREAD.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(before).fetch_all(pool).await)
    }

    pub async fn reply_context(&self, inbound_id: i64) -> StoreResult<Option<ReplyContext>> {
        let sql = RESPONSE_REPLY.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(inbound_id).fetch_optional(pool).await)
    }

    pub async fn save_reading(
        &self,
        inbound_id: i64,
        user_id: i64,
        reading: &Reading,
        now: i64,
    ) -> StoreResult<()> {
        let sql = RESPONSE_SAVE_READING.sql(self);
        let found = &reading.classification;
        let escalations =
            serde_json::to_string(&found.escalations).expect("a list of names serialises");
        let follow_up_on = found.follow_up_on.map(|date| date.to_string());
        on_writer!(self, pool => sqlx::query(sql).bind(inbound_id).bind(user_id).bind(found.sentiment).bind(found.action)
            .bind(found.confidence).bind(&found.language).bind(&found.summary).bind(&escalations).bind(&follow_up_on)
            .bind(&reading.classifier).bind(&reading.note).bind(now).execute(pool).await.map(|_| ()))
    }

    /// Sets a contact's interest (`interested` or `not_interested`).
    pub async fn set_contact_interest(
        &self,
        user_id: i64,
        email: &str,
        interest: &str,
    ) -> StoreResult<()> {
        let sql = RESPONSE_SET_INTEREST.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(user_id).bind(email).bind(interest).execute(pool).await.map(|_| ()))
    }

    /// The emails of a prospect's thread in a campaign, oldest first, as "Subject\n\nText".
    pub async fn thread_texts(
        &self,
        campaign_id: i64,
        business_id: i64,
    ) -> StoreResult<Vec<String>> {
        let sql = RESPONSE_THREAD.sql(self);
        let rows: Vec<(String, String)> = on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).bind(business_id)
            .fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(subject, body)| {
                format!(
                    "Subject: {subject}\n\n{}",
                    crate::campaigns::personalise::html_text(&body)
                )
            })
            .collect())
    }

    pub async fn answer_counts(
        &self,
        campaign_id: i64,
        since: i64,
        business_id: Option<i64>,
    ) -> StoreResult<AnswerCounts> {
        let sql = RESPONSE_ANSWER_COUNTS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).bind(since).bind(business_id).fetch_one(pool).await)
    }

    /// Takes one of the day's `cap` automatic answers of a campaign (`day`: UTC day number); false when they are
    /// all taken.
    pub async fn take_automatic_answer(
        &self,
        campaign_id: i64,
        day: i64,
        cap: i64,
    ) -> StoreResult<bool> {
        let sql = RESPONSE_TAKE_AUTOMATIC.sql(self);
        let taken: Option<i32> = on_writer!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).bind(day)
            .bind(cap).fetch_optional(pool).await)?;
        Ok(taken.is_some())
    }

    /// Gives back an automatic answer taken and not written.
    pub async fn give_back_automatic_answer(&self, campaign_id: i64, day: i64) -> StoreResult<()> {
        let sql = RESPONSE_GIVE_BACK_AUTOMATIC.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(day).execute(pool).await.map(drop))
    }

    /// Writes an answer awaiting approval; none when the reply has one already.
    pub async fn insert_answer(
        &self,
        answer: &NewAnswer<'_>,
        now: i64,
    ) -> StoreResult<Option<i64>> {
        let sql = RESPONSE_INSERT_ANSWER.sql(self);
        on_writer!(self, pool => sqlx::query_scalar(sql).bind(answer.inbound_id).bind(answer.user_id)
            .bind(answer.campaign_id).bind(answer.subject).bind(answer.body).bind(AnswerStatus::AwaitingApproval).bind(answer.why)
            .bind(answer.why.is_none()).bind(answer.writer).bind(now).fetch_optional(pool).await)
    }

    pub async fn find_answer(&self, id: i64, user_id: i64) -> StoreResult<Option<AnswerRow>> {
        let sql = RESPONSE_FIND_ANSWER.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// Marks an answer awaiting approval as queued as message `message_id` with its final text; false when it was
    /// no longer waiting.
    pub async fn queue_answer(
        &self,
        id: i64,
        user_id: i64,
        message_id: i64,
        subject: &str,
        body: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = RESPONSE_QUEUE_ANSWER.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(message_id).bind(subject).bind(body)
            .bind(now).execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    pub async fn discard_answer(&self, id: i64, user_id: i64, now: i64) -> StoreResult<bool> {
        let sql = RESPONSE_DISCARD_ANSWER.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(now).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    /// Retires the drafts of a thread still waiting for approval (its owner answered by hand); how many.
    pub async fn retire_thread_drafts(
        &self,
        thread_id: i64,
        user_id: i64,
        now: i64,
    ) -> StoreResult<u64> {
        let sql = RESPONSE_RETIRE_THREAD_DRAFTS.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(thread_id).bind(user_id).bind(now).execute(pool).await
            .map(|done| done.rows_affected()))
    }

    pub async fn edit_answer(
        &self,
        id: i64,
        user_id: i64,
        subject: &str,
        body: &str,
    ) -> StoreResult<bool> {
        let sql = RESPONSE_EDIT_ANSWER.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(subject).bind(body).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    /// A user's readings counted by (sentiment, action).
    pub async fn response_breakdown(
        &self,
        user_id: i64,
    ) -> StoreResult<Vec<(Sentiment, Action, i64)>> {
        let sql = RESPONSE_BREAKDOWN.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }

    pub async fn response_totals(&self, user_id: i64) -> StoreResult<Totals> {
        let sql = RESPONSE_TOTALS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_one(pool).await)
    }

    pub async fn recent_responses(&self, user_id: i64, limit: i64) -> StoreResult<Vec<RecentRow>> {
        let sql = RESPONSE_RECENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }

    /// Answers awaiting approval, everyone's.
    pub async fn answers_awaiting(&self) -> StoreResult<i64> {
        let sql = RESPONSE_AWAITING.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).fetch_one(pool).await)
    }
}

impl RecentRow {
    /// The stored escalations.
    pub fn escalation_list(&self) -> Vec<Escalation> {
        self.escalations
            .as_deref()
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or_default()
    }

    pub fn received(&self) -> Timestamp {
        Timestamp(self.received_at)
    }
}
