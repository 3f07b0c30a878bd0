//! The user's control over a launched campaign: pause (its messages stay queued and its sending batches leave them
//! alone until the user resumes), resume (sending jobs for what is still queued), and stop (what is still queued is
//! skipped with the reason, and the campaign completes). A pause for a limit resumes by itself; a user's waits.

use crate::campaigns::{CampaignRow, CampaignStatus};
use crate::platform::db::{Db, StoreResult};
use crate::platform::queries::*;
use crate::platform::telemetry::{self, PauseReason};
use crate::platform::window::WindowColumns;
use crate::sending::launch::enqueue_sends;
use crate::{Context, on_db, on_writer};

pub const PAUSED_BY_USER: &str =
    "Paused by you. Nothing more is sent until you resume the campaign.";
pub const STOPPED_BY_USER: &str = "Stopped by you";

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
    #[error(transparent)]
    Store(#[from] crate::platform::db::StoreError),
    #[error(transparent)]
    Queue(#[from] crate::platform::queue::QueueError),
}

/// Pauses an active campaign, or one paused for a limit: it now waits for the user.
pub async fn pause(ctx: &Context, campaign: &CampaignRow) -> Result<(), ControlError> {
    if !matches!(
        campaign.status,
        CampaignStatus::Active | CampaignStatus::Paused
    ) {
        return Err(ControlError::NotSending);
    }
    ctx.db
        .control_campaign(
            campaign.id,
            CampaignStatus::Paused,
            Some(PAUSED_BY_USER),
            true,
            ctx.now_ms(),
        )
        .await?;
    telemetry::campaign_paused(PauseReason::User);
    Ok(())
}

/// Resumes a paused campaign: its queued messages get sending jobs again, within the limits as always.
pub async fn resume(ctx: &Context, campaign: &CampaignRow) -> Result<(), ControlError> {
    if campaign.status != CampaignStatus::Paused {
        return Err(ControlError::NotPaused);
    }
    let now = ctx.now_ms();
    ctx.db
        .control_campaign(campaign.id, CampaignStatus::Active, None, false, now)
        .await?;
    // Keyed by the moment of resuming: a job of an earlier run of the same messages may still be in the queue.
    enqueue_sends(ctx, campaign.id, &format!("resumed:{now}")).await?;
    ctx.db.complete_campaign_if_done(campaign.id, now).await?;
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
    let skipped = ctx.db.skip_queued(campaign.id, STOPPED_BY_USER).await?;
    let reason = format!("{STOPPED_BY_USER}: {skipped} emails were not sent.");
    ctx.db
        .control_campaign(
            campaign.id,
            CampaignStatus::Completed,
            Some(&reason),
            false,
            now,
        )
        .await?;
    Ok(skipped)
}

impl Db {
    async fn control_campaign(
        &self,
        campaign_id: i64,
        status: CampaignStatus,
        reason: Option<&str>,
        by_user: bool,
        now: i64,
    ) -> StoreResult<()> {
        let sql = CAMPAIGN_CONTROL.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(status).bind(reason).bind(by_user)
            .bind(now).execute(pool).await.map(|_| ()))
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

    async fn skip_queued(&self, campaign_id: i64, reason: &str) -> StoreResult<u64> {
        let sql = OUTGOING_STOP.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(campaign_id).bind(reason).execute(pool).await
            .map(|done| done.rows_affected()))
    }
}
