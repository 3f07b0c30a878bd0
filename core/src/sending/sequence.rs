//! What a sent sequence owes next (issue 19): the follow-ups due by their delay and when each goes (in its window,
//! at the hour `sequence_timing` picks), the first email each answers, and whether a campaign is done (nothing
//! queued, nothing being sent, no follow-up scheduled). Sending owns this scan because it completes campaigns after
//! every batch; `followups` writes what it finds.

use std::collections::HashMap;

use crate::campaigns::templates::FollowUpTiming;
use crate::platform::db::{Db, StoreResult, json_list};
use crate::platform::queries::*;
use crate::platform::window::WindowColumns;
use crate::sending::SendingStore;
use crate::sending::sequence_timing::{Due, OpenHours, send_time};
use crate::sending::window::recipient_zone;
use crate::{on_db, on_writer};

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

/// The first email of a sequence, which its follow-ups answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Thread {
    pub message_id: Option<String>,
    pub subject: String,
}

/// Due follow-ups read from the database at a time while looking for those scheduled by a moment.
const PAGE: i64 = 20_000;
/// Due follow-ups read at a time when any one that may go is the answer.
const ANY_LEFT_PAGE: i64 = 100;

impl SendingStore<'_> {
    /// Follow-ups scheduled to go out at or before `until` (in their window, at the hour AI timing picks), of one
    /// user or everyone's, of one campaign or any, at most `limit`, the soonest first.
    pub async fn pending_follow_ups(
        &self,
        scope: Scope,
        until: i64,
        limit: i64,
    ) -> StoreResult<Vec<PendingFollowUp>> {
        self.pending_in_pages(scope, until, limit, PAGE).await
    }

    /// `pending_follow_ups`, reading `page_size` due follow-ups at a time.
    async fn pending_in_pages(
        &self,
        scope: Scope,
        until: i64,
        limit: i64,
        page_size: i64,
    ) -> StoreResult<Vec<PendingFollowUp>> {
        let sql = FOLLOW_UP_PENDING.sql(self);
        let mut scheduled = Vec::new();
        let mut open_hours = OpenHours::default();
        // Those due by their delay are read in pages and kept when their window lets them go by `until`, so many
        // waiting for a window never hide one that may go.
        let mut after = (i64::MIN, i64::MIN);
        loop {
            let page: Vec<PendingFollowUp> = on_db!(self, pool => sqlx::query_as(sql).bind(scope.user_id)
                .bind(until).bind(page_size).bind(scope.campaign_id).bind(after.0).bind(after.1).fetch_all(pool).await)?;
            let full = page.len() as i64 == page_size;
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
        let list = json_list(message_ids);
        on_writer!(self, pool => sqlx::query(sql).bind(&list).execute(pool).await.map(|_| ()))
    }

    /// The first emails that follow-ups of a campaign's prospects answer, by business.
    pub async fn threads_of(
        &self,
        campaign_id: i64,
        business_ids: &[i64],
    ) -> StoreResult<HashMap<i64, Thread>> {
        if business_ids.is_empty() {
            return Ok(Default::default());
        }
        let sql = FOLLOW_UP_THREADS.sql(self);
        let list = json_list(business_ids);
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

    /// A sending campaign completes when nothing is queued or being sent and no follow-up is scheduled (issue 19);
    /// a prospect who opens later schedules one, and the follow-up run reopens the campaign then.
    pub async fn complete_campaign_if_done(&self, campaign_id: i64, now: i64) -> StoreResult<()> {
        // Every batch but a campaign's last finds messages still to send: it looks no further (the follow-ups'
        // scan below took 2.7 of the 58 µs a message of a send batch's statements, docs/benchmarks.md).
        let unsent = CAMPAIGN_HAS_UNSENT.sql(self);
        let has_unsent: bool = on_db!(self, pool => sqlx::query_scalar(unsent).bind(campaign_id).fetch_one(pool).await)?;
        if has_unsent {
            return Ok(());
        }
        let scope = Scope {
            user_id: None,
            campaign_id: Some(campaign_id),
        };
        // Any follow-up still to go keeps it open: the first that has not ended answers, so a short page does
        // (this runs after every send batch; a page of 20,000 took 130 ms at a million messages).
        if !self
            .pending_in_pages(scope, i64::MAX, 1, ANY_LEFT_PAGE)
            .await?
            .is_empty()
        {
            return Ok(());
        }
        let sql = CAMPAIGN_COMPLETE_IF_DONE.sql(self);
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
