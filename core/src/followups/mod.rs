//! Follow-ups that go out (issue 19, B §4 follow-up sequence): follow-up n of a campaign's template is due
//! `delay_days` after the prospect first opened message n-1 (a person's open; machine opens do not count). A reply,
//! a hard bounce, a spam report or an unsubscribe on any message of the sequence stops it, and a paused, archived
//! or stopped campaign sends none. The scheduler's `SendFollowUps` job writes the due follow-ups as message rows
//! (one per campaign, business and step: the exactly-once key) and sends them through the same batches as first
//! emails: the same claims under the monthly quota and the sender's daily cap, suppression checks, footer and
//! unsubscribe headers. A follow-up answers the first email: `In-Reply-To` and `References` name it. It goes out
//! inside the campaign's sending window, at the hour `sending::sequence_timing` picks; which follow-ups are due is
//! `sending::sequence`'s scan, which this module writes and queues.

use crate::Context;
use crate::campaigns::personalise::{Recipient, render, render_html};
use crate::platform::clock::Timestamp;
use crate::platform::db::BeginWrite;
use crate::platform::db::{Db, StoreResult};
use crate::platform::faults;
use crate::platform::queries::*;
use crate::platform::queue::QueueError;
use crate::sending::messages::MessageKind;
use crate::sending::outgoing::{Dispatch, Letter, Outgoing};
use crate::sending::sequence::{PendingFollowUp, Scope};
use crate::{on_db, on_writer};
use std::collections::HashMap;

crate::capability_store!(
    /// The followups capability's reads and writes: `db.followups()`.
    FollowupsStore,
    followups
);

/// Why a prospect's follow-ups stopped when the user stopped them.
pub const STOPPED_BY_HAND: &str = "Stopped by you";

/// Follow-ups queued per run at most; the next minute's run takes the rest.
pub const DUE_PER_RUN: i64 = 50_000;

/// A sent follow-up (B §3 Follow-up analytics item).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentFollowUp {
    pub id: i64,
    pub follow_up_subject: String,
    pub recipient_email: String,
    pub sent_at: Timestamp,
    pub sequence_number: i32,
    pub opened: bool,
    pub clicked: bool,
    pub original_subject: Option<String>,
}

impl FollowupsStore<'_> {
    /// The next follow-up of a message's sequence is due at `at` (a reply asked to be written to then).
    pub async fn schedule_follow_up(
        &self,
        message_id: i64,
        campaign_id: i64,
        at: i64,
    ) -> StoreResult<()> {
        let sql = FOLLOW_UP_SCHEDULE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(message_id).bind(campaign_id).bind(at).execute(pool).await
            .map(|_| ()))
    }

    /// Recomputes when the next follow-up of each message of a template is due, after its sequence or timing
    /// changed.
    pub async fn reschedule_follow_ups(&self, template_id: i64) -> StoreResult<()> {
        let (unschedule, reschedule) = (
            FOLLOW_UP_UNSCHEDULE.sql(self),
            FOLLOW_UP_RESCHEDULE.sql(self),
        );
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(unschedule).bind(template_id).execute(&mut *tx).await?;
            sqlx::query(reschedule).bind(template_id).execute(&mut *tx).await?;
            tx.commit().await
        })
    }

    /// A user's sent follow-ups, newest first.
    pub async fn sent_follow_ups(
        &self,
        user_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<SentFollowUp>> {
        let sql = FOLLOW_UP_SENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }

    /// Follow-up `step` of a template, when the template is the user's.
    pub async fn follow_up_content(
        &self,
        template_id: i64,
        step: i32,
        user_id: i64,
    ) -> StoreResult<Option<(String, String)>> {
        let sql = FOLLOW_UP_CONTENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(template_id).bind(step).bind(user_id)
            .fetch_optional(pool).await)
    }

    /// Stops the follow-ups of the prospect of one of the user's campaign emails, with why; false when the message
    /// is not one of them. Stopping twice keeps the first reason.
    pub async fn stop_follow_ups(
        &self,
        message_id: i64,
        user_id: i64,
        reason: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let owned = FOLLOW_UP_OWNED_MESSAGE.sql(self);
        let count: i64 = on_db!(self, pool => sqlx::query_scalar(owned).bind(message_id).bind(user_id)
            .fetch_one(pool).await)?;
        if count == 0 {
            return Ok(false);
        }
        let sql = FOLLOW_UP_STOP.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(message_id).bind(user_id).bind(reason).bind(now)
            .execute(pool).await.map(|_| ()))?;
        Ok(true)
    }

    async fn reopen_campaign(&self, campaign_id: i64, now: i64) -> StoreResult<()> {
        let sql = CAMPAIGN_REOPEN.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(now).execute(pool).await.map(|_| ()))
    }
}

/// A user's follow-ups waiting to go out (at most `limit`), each with its subject and body personalised for its
/// business as the prospect will read them (the Follow-up Manager shows these, not the template's placeholders).
pub async fn pending_as_written(
    db: &Db,
    user_id: i64,
    limit: i64,
    today: chrono::NaiveDate,
) -> StoreResult<Vec<PendingFollowUp>> {
    let scope = Scope {
        user_id: Some(user_id),
        campaign_id: None,
    };
    let mut pending = db
        .sending()
        .pending_follow_ups(scope, i64::MAX, limit)
        .await?;
    let businesses: Vec<i64> = pending
        .iter()
        .map(|follow_up| follow_up.business_id)
        .collect();
    // Each follow-up's icebreaker in its template's language (a user's follow-ups are mostly of one).
    let mut by_language: HashMap<Option<&'static str>, HashMap<i64, Recipient>> = HashMap::new();
    for follow_up in &pending {
        let language = crate::writing::icebreaker::language_of(&follow_up.follow_up_body);
        if let std::collections::hash_map::Entry::Vacant(entry) = by_language.entry(language) {
            let recipients = db
                .discovery()
                .recipients(&businesses, user_id, language, today)
                .await?;
            entry.insert(recipients);
        }
    }
    for follow_up in &mut pending {
        let language = crate::writing::icebreaker::language_of(&follow_up.follow_up_body);
        let recipient = by_language
            .get(&language)
            .and_then(|recipients| recipients.get(&follow_up.business_id))
            .cloned()
            .unwrap_or_default();
        let seed = format!("{}-{}", follow_up.original_id, follow_up.step);
        follow_up.follow_up_subject = render(&follow_up.follow_up_subject, &recipient, &seed).text;
        follow_up.follow_up_body = render_html(&follow_up.follow_up_body, &recipient, &seed).text;
    }
    Ok(pending)
}

/// Queues every follow-up due now (of one user, or everyone's) and its sending jobs; returns the ids of the
/// messages queued. Run twice (two schedulers, a retried job, Send All beside the scheduler) it queues nothing
/// more: a follow-up's row exists once.
pub async fn queue_due_follow_ups(
    ctx: &Context,
    user_id: Option<i64>,
) -> Result<Vec<i64>, QueueError> {
    let now = ctx.now_ms();
    let scope = Scope {
        user_id,
        campaign_id: None,
    };
    let mut due = ctx
        .db
        .sending()
        .pending_follow_ups(scope, now, DUE_PER_RUN)
        .await?;
    // Each campaign's follow-ups are written together (by sender) and go out in its own batches.
    due.sort_by_key(|follow_up| (follow_up.campaign_id, follow_up.config_id));
    let mut queued = Vec::new();
    for group in due.chunk_by(|a, b| a.campaign_id == b.campaign_id) {
        let campaign_id = group[0].campaign_id;
        let first = &group[0];
        let outgoing = Outgoing {
            user_id: first.user_id,
            campaign_id: Some(campaign_id),
            config_id: first.config_id,
            pooled: false,
            kind: MessageKind::FollowUp,
        };
        // A campaign's follow-ups share its user; each keeps the sender of the email it follows.
        let mut ids = Vec::with_capacity(group.len());
        for same_sender in group.chunk_by(|a, b| a.config_id == b.config_id) {
            let letters: Vec<Letter> = same_sender
                .iter()
                .map(|follow_up| Letter {
                    to_email: &follow_up.to_email,
                    business_id: Some(follow_up.business_id),
                    template_id: Some(follow_up.template_id),
                    step: follow_up.step,
                    ..Letter::default()
                })
                .collect();
            let outgoing = Outgoing {
                config_id: same_sender[0].config_id,
                ..outgoing
            };
            ids.extend(outgoing.write(&ctx.db, &letters, now).await?);
        }
        faults::point_with("follow-ups-written", || campaign_id.to_string());
        // The follow-up is written (by this run or another): its first email waits for nothing more.
        let originals: Vec<i64> = group
            .iter()
            .map(|follow_up| follow_up.original_id)
            .collect();
        ctx.db.sending().clear_follow_up_due(&originals).await?;
        if ids.is_empty() {
            continue;
        }
        ctx.db.followups().reopen_campaign(campaign_id, now).await?;
        let dispatch = Dispatch {
            tag: "follow-up",
            ..Dispatch::default()
        };
        outgoing.queue(&ctx.queue, &ids, dispatch).await?;
        queued.extend(ids);
    }
    Ok(queued)
}
