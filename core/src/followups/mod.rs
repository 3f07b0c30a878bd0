//! Follow-ups that go out (issue 19, B §4 follow-up sequence): follow-up n of a campaign's template is due
//! `delay_days` after the prospect first opened message n-1 (a person's open; machine opens do not count). A reply,
//! a hard bounce, a spam report or an unsubscribe on any message of the sequence stops it, and a paused, archived
//! or stopped campaign sends none. The scheduler's `SendFollowUps` job writes the due follow-ups as message rows
//! (one per campaign, business and step: the exactly-once key) and sends them through the same batches as first
//! emails: the same claims under the monthly quota and the sender's daily cap, suppression checks, footer and
//! unsubscribe headers. A follow-up answers the first email: `In-Reply-To` and `References` name it. It goes out
//! inside the campaign's sending window, at the hour `timing` picks.

pub mod timing;

use crate::Context;
use crate::campaigns::personalise::{render, render_html};
use crate::campaigns::templates::FollowUpTiming;
use crate::platform::clock::Timestamp;
use crate::platform::db::{Db, StoreResult};
use crate::platform::faults;
use crate::platform::queries::*;
use crate::platform::queue::QueueError;
use crate::sending::messages::MessageKind;
use crate::sending::outgoing::{Dispatch, Letter, Outgoing};
use crate::sending::window::{WindowColumns, recipient_zone};
use crate::{on_db, on_writer};

use self::timing::{Due, OpenHours, send_time};

/// Why a prospect's follow-ups stopped when the user stopped them.
pub const STOPPED_BY_HAND: &str = "Stopped by you";

/// Follow-ups queued per run at most; the next minute's run takes the rest.
pub const DUE_PER_RUN: i64 = 50_000;

/// Whose follow-ups a scan looks at: one user's or everyone's, one campaign's or any.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scope {
    pub user_id: Option<i64>,
    pub campaign_id: Option<i64>,
}

/// A follow-up waiting to go out: what writing its row needs, and what the Follow-up Manager shows of it
/// (B §3 Pending follow-up).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PendingFollowUp {
    pub user_id: i64,
    pub campaign_id: i64,
    pub template_id: i64,
    pub business_id: i64,
    pub to_email: String,
    pub config_id: Option<i64>,
    pub step: i32,
    pub original_id: i64,
    pub original_subject: String,
    pub original_sent_at: i64,
    pub original_opened_at: Option<i64>,
    pub follow_up_id: i64,
    pub follow_up_subject: String,
    pub follow_up_body: String,
    pub delay_days: i32,
    pub timing: FollowUpTiming,
    /// When it is due by its delay.
    pub due_at: i64,
    /// When it goes out: in the campaign's window, at the hour AI timing picks.
    #[sqlx(skip)]
    pub scheduled_for: i64,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub city: Option<String>,
    #[sqlx(flatten)]
    pub window: WindowColumns,
    pub ai_follow_up_timing: bool,
    /// The sequence has ended (see `follow_ups/pending.sql`): never listed, and its due time is cleared.
    pub finished: bool,
}

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

/// The first email of a sequence, which its follow-ups answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Thread {
    pub message_id: Option<String>,
    pub subject: String,
}

/// Due follow-ups read from the database at a time while looking for those scheduled by a moment.
const PAGE: i64 = 20_000;

impl Db {
    /// Follow-ups scheduled to go out at or before `until` (in their window, at the hour AI timing picks), of one
    /// user or everyone's, of one campaign or any, at most `limit`, the soonest first.
    pub async fn pending_follow_ups(
        &self,
        scope: Scope,
        until: i64,
        limit: i64,
    ) -> StoreResult<Vec<PendingFollowUp>> {
        let sql = FOLLOW_UP_PENDING.sql(self);
        let mut scheduled = Vec::new();
        let mut open_hours = OpenHours::default();
        // Those due by their delay are read in pages and kept when their window lets them go by `until`, so many
        // waiting for a window never hide one that may go.
        let mut after = (i64::MIN, i64::MIN);
        loop {
            let page: Vec<PendingFollowUp> = on_db!(self, pool => sqlx::query_as(sql).bind(scope.user_id)
                .bind(until).bind(PAGE).bind(scope.campaign_id).bind(after.0).bind(after.1).fetch_all(pool).await)?;
            let full = page.len() as i64 == PAGE;
            if let Some(last) = page.last() {
                after = (last.due_at, last.original_id);
            }
            let mut ended = Vec::new();
            for mut follow_up in page {
                if follow_up.finished {
                    ended.push(follow_up.original_id);
                    continue;
                }
                follow_up.scheduled_for = scheduled_time(self, &follow_up, &mut open_hours).await?;
                if follow_up.scheduled_for <= until {
                    scheduled.push(follow_up);
                }
            }
            self.clear_follow_up_due(&ended).await?;
            if !full || scheduled.len() as i64 >= limit {
                break;
            }
        }
        scheduled.sort_by_key(|follow_up| (follow_up.scheduled_for, follow_up.original_id));
        scheduled.truncate(limit.max(0) as usize);
        Ok(scheduled)
    }

    /// Ends the wait for a next follow-up of these messages: it was written, or their sequence ended.
    pub async fn clear_follow_up_due(&self, message_ids: &[i64]) -> StoreResult<()> {
        if message_ids.is_empty() {
            return Ok(());
        }
        let sql = FOLLOW_UP_CLEAR.sql(self);
        let list = crate::platform::db::json_list(message_ids);
        on_writer!(self, pool => sqlx::query(sql).bind(&list).execute(pool).await.map(|_| ()))
    }

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
            let mut tx = pool.begin().await?;
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

    /// The first emails that follow-ups of a campaign's prospects answer, by business.
    pub async fn threads_of(
        &self,
        campaign_id: i64,
        business_ids: &[i64],
    ) -> StoreResult<std::collections::HashMap<i64, Thread>> {
        if business_ids.is_empty() {
            return Ok(Default::default());
        }
        let sql = FOLLOW_UP_THREADS.sql(self);
        let list = crate::platform::db::json_list(business_ids);
        let rows: Vec<(i64, Option<String>, String)> = on_db!(self, pool => sqlx::query_as(sql)
            .bind(campaign_id).bind(&list).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(business_id, message_id, subject)| {
                (
                    business_id,
                    Thread {
                        message_id,
                        subject,
                    },
                )
            })
            .collect())
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

/// When a due follow-up goes out (see `timing`).
async fn scheduled_time(
    db: &Db,
    follow_up: &PendingFollowUp,
    open_hours: &mut OpenHours,
) -> StoreResult<i64> {
    let window = follow_up.window.window();
    let zone = recipient_zone(
        follow_up.latitude,
        follow_up.longitude,
        follow_up.city.as_deref(),
        window.time_zone,
    );
    let due = Due {
        at: follow_up.due_at,
        opened_at: follow_up.original_opened_at,
        window: &window,
        zone,
        ai_timing: follow_up.ai_follow_up_timing,
    };
    // The campaign's hour matters only to a recipient with no open of their own.
    let campaign_hour = if follow_up.ai_follow_up_timing && follow_up.original_opened_at.is_none() {
        open_hours
            .of(db, follow_up.campaign_id, window.time_zone)
            .await?
    } else {
        None
    };
    Ok(send_time(due, campaign_hour))
}

/// A user's follow-ups waiting to go out (at most `limit`), each with its subject and body personalised for its
/// business as the prospect will read them (the Follow-up Manager shows these, not the template's placeholders).
pub async fn pending_as_written(
    db: &Db,
    user_id: i64,
    limit: i64,
) -> StoreResult<Vec<PendingFollowUp>> {
    let scope = Scope {
        user_id: Some(user_id),
        campaign_id: None,
    };
    let mut pending = db.pending_follow_ups(scope, i64::MAX, limit).await?;
    let businesses: Vec<i64> = pending
        .iter()
        .map(|follow_up| follow_up.business_id)
        .collect();
    let recipients = db.recipients(&businesses, user_id).await?;
    for follow_up in &mut pending {
        let recipient = recipients
            .get(&follow_up.business_id)
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
    let mut due = ctx.db.pending_follow_ups(scope, now, DUE_PER_RUN).await?;
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
        ctx.db.clear_follow_up_due(&originals).await?;
        if ids.is_empty() {
            continue;
        }
        ctx.db.reopen_campaign(campaign_id, now).await?;
        let dispatch = Dispatch {
            tag: "follow-up",
            ..Dispatch::default()
        };
        outgoing.queue(&ctx.queue, &ids, dispatch).await?;
        queued.extend(ids);
    }
    Ok(queued)
}
