//! One plain `async fn` per job kind: what the job does, callable directly from tests.

use outreach_core::Context;
use outreach_core::jobs::ExpireSubscriptions;

/// Trials and premium grants whose period ended become expired; returns how many.
pub async fn expire_subscriptions(ctx: &Context, job: &ExpireSubscriptions) -> anyhow::Result<u64> {
    let expired = ctx.db.expire_subscriptions(ctx.now_ms()).await?;
    let sessions = ctx.db.delete_expired_sessions(ctx.now_ms()).await?;
    tracing::info!(tick = %job.tick, expired, sessions, "subscriptions expired");
    Ok(expired)
}
