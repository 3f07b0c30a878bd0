//! The user's control over a launched campaign: pause (its messages stay queued and its sending batches leave them
//! alone until the user resumes), resume (sending jobs for what is still queued), stop (what is still queued is
//! skipped with the reason, and the campaign completes), and sending the emails in doubt again. A pause for a limit resumes by itself; a user's waits, and
//! so does an operator's (the console makes the same writes in its audited transaction: `pause_in`, `resume_in`).

use crate::campaigns::{CampaignRow, CampaignStatus};
use crate::platform::db::{StoreResult, Tx};
use crate::platform::queries::*;
use crate::platform::telemetry::{self, PauseReason};
use crate::platform::window::WindowColumns;
use crate::sending::SendingStore;
use crate::sending::launch::enqueue_sends;
use crate::sending::messages::STOPPED_BY_USER;
use crate::{Context, on_db, on_tx};

pub const PAUSED_BY_USER: &str =
    "Paused by you. Nothing more is sent until you resume the campaign.";

/// What the campaign's owner reads after an administrator's pause.
pub const PAUSED_BY_OPERATOR: &str =
    "Paused by the operator of this instance. Nothing more is sent until the campaign is resumed.";

/// Who paused a campaign; either way it waits for a resume (by its owner or an administrator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PausedBy {
    User,
    Operator,
}

/// What a sending batch reads of its campaign: the user's pause, the sender name and reply-to address chosen in the
/// builder (none: the sender's own), and when it may send (a test send, with no campaign, sends at once).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct CampaignSendingSettings {
    pub paused_by_user: bool,
    pub email_from_name: Option<String>,
    pub reply_to: Option<String>,
    #[sqlx(flatten)]
    pub window: WindowColumns,
    /// The campaign turned open tracking off (a test send, with no campaign, keeps it).
    pub no_open_pixel: bool,
    /// The campaign leaves its links as written.
    pub no_click_tracking: bool,
    /// The campaign sends plain text alone (a test send, with no campaign, sends HTML).
    pub plain_text: bool,
}

/// Why a control does not apply to the campaign as it is.
#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("Only a campaign that is sending can be paused")]
    NotSending,
    #[error("Only a paused campaign can be resumed")]
    NotPaused,
    #[error("This campaign has finished; there is nothing to stop")]
    Finished,
    #[error("No email of this campaign is in doubt")]
    NothingInDoubt,
    #[error(transparent)]
    Store(#[from] crate::platform::db::StoreError),
    #[error(transparent)]
    Queue(#[from] crate::platform::queue::QueueError),
}

/// Pauses an active campaign, or one paused for a limit: it now waits for the user.
pub async fn pause(ctx: &Context, campaign: &CampaignRow) -> Result<(), ControlError> {
    let mut tx = ctx.db.begin_write().await?;
    pause_in(&mut tx, campaign, PausedBy::User, ctx.now_ms()).await?;
    tx.commit().await?;
    telemetry::campaign_paused(PauseReason::User);
    Ok(())
}

/// The writes of a pause, in `tx`.
pub async fn pause_in(
    tx: &mut Tx,
    campaign: &CampaignRow,
    by: PausedBy,
    now: i64,
) -> Result<(), ControlError> {
    if !matches!(
        campaign.status,
        CampaignStatus::Active | CampaignStatus::Paused
    ) {
        return Err(ControlError::NotSending);
    }
    let reason = match by {
        PausedBy::User => PAUSED_BY_USER,
        PausedBy::Operator => PAUSED_BY_OPERATOR,
    };
    control_campaign(
        tx,
        campaign.id,
        CampaignStatus::Paused,
        Some(reason),
        true,
        now,
    )
    .await?;
    Ok(())
}

/// Resumes a paused campaign: its queued messages get sending jobs again, within the limits as always.
pub async fn resume(ctx: &Context, campaign: &CampaignRow) -> Result<(), ControlError> {
    let now = ctx.now_ms();
    let mut tx = ctx.db.begin_write().await?;
    resume_in(&mut tx, campaign, now).await?;
    tx.commit().await?;
    resumed(ctx, campaign.id, now).await
}

/// The writes of a resume, in `tx`; `resumed` follows its commit.
pub async fn resume_in(tx: &mut Tx, campaign: &CampaignRow, now: i64) -> Result<(), ControlError> {
    if campaign.status != CampaignStatus::Paused {
        return Err(ControlError::NotPaused);
    }
    control_campaign(tx, campaign.id, CampaignStatus::Active, None, false, now).await?;
    Ok(())
}

/// After a resume: sending jobs for what is still queued, and the campaign completes when nothing is.
pub async fn resumed(ctx: &Context, campaign_id: i64, now: i64) -> Result<(), ControlError> {
    // Keyed by the moment of resuming: a job of an earlier run of the same messages may still be in the queue.
    enqueue_sends(ctx, campaign_id, &format!("resumed:{now}")).await?;
    ctx.db
        .sending()
        .complete_campaign_if_done(campaign_id, now)
        .await?;
    Ok(())
}

/// Stops a campaign for good: what is still queued is skipped with the reason (a message being sent finishes).
pub async fn stop(ctx: &Context, campaign: &CampaignRow) -> Result<u64, ControlError> {
    if !matches!(
        campaign.status,
        CampaignStatus::Active | CampaignStatus::Paused
    ) {
        return Err(ControlError::Finished);
    }
    let now = ctx.now_ms();
    // The skips and the status in one transaction: a stop is whole or not at all.
    let mut tx = ctx.db.begin_write().await?;
    // PostgreSQL: the queued messages are locked before the skip reads their claims (see outgoing/stop.sql).
    if matches!(tx, Tx::Postgres(_)) {
        let lock = tx.sql(&OUTGOING_LOCK_QUEUED);
        on_tx!(&mut tx, conn => sqlx::query(lock).bind(campaign.id).execute(conn).await.map(drop))?;
    }
    let skip = tx.sql(&OUTGOING_STOP);
    let skipped = on_tx!(&mut tx, conn => sqlx::query(skip).bind(campaign.id).bind(STOPPED_BY_USER)
        .execute(conn).await.map(|done| done.rows_affected()))?;
    let reason = format!("{STOPPED_BY_USER}: {skipped} emails were not sent.");
    control_campaign(
        &mut tx,
        campaign.id,
        CampaignStatus::Completed,
        Some(&reason),
        false,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(skipped)
}

/// Sends a campaign's emails in doubt again (their worker stopped while handing them over: some may have
/// arrived), at the user's word: they go back to the queue, and a finished campaign sends again. A campaign the user
/// paused keeps them queued until the resume. Returns how many.
pub async fn send_uncertain_again(
    ctx: &Context,
    campaign: &CampaignRow,
) -> Result<u64, ControlError> {
    let now = ctx.now_ms();
    let mut tx = ctx.db.begin_write().await?;
    let sql = tx.sql(&OUTGOING_RESEND_UNCERTAIN);
    let requeued = on_tx!(&mut tx, conn => sqlx::query(sql).bind(campaign.id).execute(conn).await
        .map(|done| done.rows_affected()))?;
    if requeued == 0 {
        return Err(ControlError::NothingInDoubt);
    }
    if campaign.status == CampaignStatus::Completed {
        control_campaign(
            &mut tx,
            campaign.id,
            CampaignStatus::Active,
            None,
            false,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    if campaign.status != CampaignStatus::Paused {
        resumed(ctx, campaign.id, now).await?;
    }
    Ok(requeued)
}

impl SendingStore<'_> {
    /// When the emails of the campaign a stopped worker held are settled and sending goes on (None: no stopped
    /// worker holds any). `lease_ms`: the workers' lease.
    pub async fn resuming_at(
        &self,
        campaign_id: i64,
        now: i64,
        lease_ms: i64,
    ) -> StoreResult<Option<i64>> {
        let sql = OUTGOING_RESUMING.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).bind(now + lease_ms / 3)
            .fetch_one(pool).await)
    }

    /// What a sending batch needs of its campaign (a deleted campaign has the defaults).
    pub async fn campaign_sending_settings(
        &self,
        campaign_id: i64,
    ) -> StoreResult<CampaignSendingSettings> {
        let sql = CAMPAIGN_SENDING_SETTINGS.sql(self);
        let settings: Option<CampaignSendingSettings> = on_db!(self, pool => sqlx::query_as(sql)
            .bind(campaign_id).fetch_optional(pool).await)?;
        Ok(settings.unwrap_or_default())
    }
}

/// A campaign's status, the reason shown, and whether it waits for a resume.
async fn control_campaign(
    tx: &mut Tx,
    campaign_id: i64,
    status: CampaignStatus,
    reason: Option<&str>,
    waits: bool,
    now: i64,
) -> StoreResult<()> {
    let sql = tx.sql(&CAMPAIGN_CONTROL);
    on_tx!(tx, conn => sqlx::query(sql).bind(campaign_id).bind(status).bind(reason).bind(waits).bind(now)
        .execute(conn).await.map(drop))
}
