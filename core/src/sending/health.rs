//! Sender health (issue 79): a sender whose server cannot be reached, or refuses the sign-in, three times in a row,
//! or more than 5% of whose last 100 messages bounced, or whose mail drew a spam complaint, is taken out of rotation
//! with the reason and the time. Its pool's other senders take its waiting first emails; what is threaded on it
//! (follow-ups, answers) waits; a campaign pauses only when no sender of its pool is left. The user puts it back
//! from its card, which resumes the campaigns that waited for it.

use crate::Context;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::platform::queue::QueueError;
use crate::platform::telemetry::{self, SenderOut};
use crate::sending::launch::enqueue_sends;
use crate::sending::{SenderFailure, SendingStore};
use crate::{on_db, on_writer};

/// Failed connections or sign-ins in a row that take a sender out.
pub const FAILURES_IN_A_ROW: i32 = 3;
/// The messages a sender's bounce rate is read over, and how many of them may bounce.
pub const RECENT_MESSAGES: i64 = 100;
pub const BOUNCES_ALLOWED: i64 = 5;

impl SendingStore<'_> {
    /// One more failure in a row; returns the sender's failures in a row.
    async fn sender_failed(&self, config_id: i64, now: i64) -> StoreResult<i32> {
        let sql = EMAIL_CONFIG_FAILED.sql(self);
        let streak: Option<i32> = on_writer!(self, pool => sqlx::query_scalar(sql).bind(config_id).bind(now)
            .fetch_optional(pool).await)?;
        Ok(streak.unwrap_or_default())
    }

    /// The sender's server took a message: its failures in a row end.
    pub async fn sender_worked(&self, config_id: i64) -> StoreResult<()> {
        let sql = EMAIL_CONFIG_WORKED.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(config_id).execute(pool).await.map(drop))
    }

    /// Takes a sender out with the reason; true when this call did (not an earlier one).
    async fn take_out(&self, config_id: i64, reason: &str, now: i64) -> StoreResult<bool> {
        let sql = EMAIL_CONFIG_TAKE_OUT.sql(self);
        let taken: Option<i64> = on_writer!(self, pool => sqlx::query_scalar(sql).bind(config_id).bind(now)
            .bind(reason).fetch_optional(pool).await)?;
        Ok(taken.is_some())
    }

    /// How many of the sender's last messages bounced and drew spam complaints.
    async fn recent_feedback(&self, config_id: i64) -> StoreResult<(i64, i64)> {
        let sql = EMAIL_CONFIG_RECENT_BOUNCES.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(config_id).bind(RECENT_MESSAGES).fetch_one(pool).await)
    }
}

impl SendingStore<'_> {
    /// Takes a sender out and counts it; true when this call did.
    async fn take_sender_out(
        &self,
        config_id: i64,
        why: SenderOut,
        reason: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let taken = self.take_out(config_id, reason, now).await?;
        if taken {
            tracing::warn!(config_id, %reason, "sender taken out of rotation");
            telemetry::sender_taken_out(why);
        }
        Ok(taken)
    }

    /// After a message of `config_id` bounced or drew a complaint: a complaint, or more than [`BOUNCES_ALLOWED`]
    /// bounces among its last [`RECENT_MESSAGES`] messages, takes the sender out. Returns whether this took it out.
    pub async fn check_sender_feedback(&self, config_id: i64, now: i64) -> StoreResult<bool> {
        let (bounced, complaints) = self.recent_feedback(config_id).await?;
        if complaints > 0 {
            let reason = "Taken out of rotation: a recipient reported its email as spam";
            return self
                .take_sender_out(config_id, SenderOut::Complaint, reason, now)
                .await;
        }
        if bounced > BOUNCES_ALLOWED {
            let reason = format!(
                "Taken out of rotation: {bounced} of its last {RECENT_MESSAGES} emails bounced (more than {BOUNCES_ALLOWED})"
            );
            return self
                .take_sender_out(config_id, SenderOut::Bounces, &reason, now)
                .await;
        }
        Ok(false)
    }
}

/// A sender could not be used (`what` its server said); after [`FAILURES_IN_A_ROW`] it is taken out. Returns
/// whether it is out now.
pub async fn sender_failed(
    ctx: &Context,
    config_id: i64,
    failure: SenderFailure,
    what: &str,
) -> StoreResult<bool> {
    let streak = ctx
        .db
        .sending()
        .sender_failed(config_id, ctx.now_ms())
        .await?;
    if streak < FAILURES_IN_A_ROW {
        return Ok(false);
    }
    let (why, reason) = match failure {
        SenderFailure::Unreachable => (
            SenderOut::Unreachable,
            format!(
                "Taken out of rotation: its server could not be reached {streak} times in a row ({what})"
            ),
        ),
        SenderFailure::Refused => (
            SenderOut::SignIn,
            format!(
                "Taken out of rotation: its server refused the sign-in {streak} times in a row ({what})"
            ),
        ),
    };
    ctx.db
        .sending()
        .take_sender_out(config_id, why, &reason, ctx.now_ms())
        .await?;
    Ok(true)
}

/// Why putting a sender back did nothing.
#[derive(Debug, thiserror::Error)]
pub enum PutBackError {
    #[error("Email configuration not found")]
    NotFound,
    #[error("This sender is in rotation already")]
    NotOut,
    #[error(transparent)]
    Store(#[from] crate::platform::db::StoreError),
    #[error(transparent)]
    Queue(#[from] QueueError),
}

/// The user puts a sender that was taken out back into rotation: its failures are forgotten, the campaigns that
/// paused for want of a sender resume, and what waited for it (its campaigns' first emails, the follow-ups and
/// answers threaded on it) gets sending jobs again.
pub async fn put_back(ctx: &Context, user_id: i64, config_id: i64) -> Result<(), PutBackError> {
    let db = &ctx.db;
    let config = db
        .sending()
        .find_email_config(config_id, user_id)
        .await?
        .filter(|config| config.removed_at.is_none())
        .ok_or(PutBackError::NotFound)?;
    if config.out_at.is_none() {
        return Err(PutBackError::NotOut);
    }
    let now = ctx.now_ms();
    let (put_back, resume, waiting) = (
        EMAIL_CONFIG_PUT_BACK.sql(db),
        CAMPAIGN_SENDERS_RESUME.sql(db),
        OUTGOING_WAITING_ON_SENDER.sql(db),
    );
    let mut campaigns: Vec<i64> = on_writer!(db, pool => {
        let mut tx = crate::platform::db::BeginWrite::begin_write(pool).await?;
        sqlx::query(put_back).bind(config_id).bind(user_id).bind(now).execute(&mut *tx).await?;
        let resumed: Vec<i64> = sqlx::query_scalar(resume).bind(config_id).bind(now).fetch_all(&mut *tx).await?;
        tx.commit().await?;
        Ok::<_, crate::platform::db::StoreError>(resumed)
    })?;
    let threaded: Vec<i64> =
        on_db!(db, pool => sqlx::query_scalar(waiting).bind(config_id).fetch_all(pool).await)?;
    campaigns.extend(threaded);
    campaigns.extend(
        db.sending()
            .sender_campaigns(config_id)
            .await?
            .into_iter()
            .map(|(id, _)| id),
    );
    campaigns.sort_unstable();
    campaigns.dedup();
    for campaign_id in campaigns {
        enqueue_sends(ctx, campaign_id, &format!("put-back:{config_id}:{now}")).await?;
    }
    Ok(())
}

/// After a campaign's pool changed: a campaign that paused for want of a sender sends again, and what waits (its
/// first emails, follow-ups threaded on a sender back in the pool) gets sending jobs.
pub async fn pool_changed(ctx: &Context, campaign_id: i64) -> Result<(), QueueError> {
    let now = ctx.now_ms();
    let sql = CAMPAIGN_SENDERS_RESUME_ONE.sql(&ctx.db);
    on_writer!(ctx.db, pool => sqlx::query(sql).bind(campaign_id).bind(now).execute(pool).await.map(drop))?;
    if ctx
        .db
        .sending()
        .campaign_progress(campaign_id)
        .await?
        .queued
        > 0
    {
        enqueue_sends(ctx, campaign_id, &format!("pool:{now}")).await?;
    }
    Ok(())
}
