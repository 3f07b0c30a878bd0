//! The scheduler: a table of schedules, each turning its current tick into jobs keyed by (schedule, tick), so a
//! restarted scheduler catches up and two schedulers never double-fire; and, on the same timer, the resumption of
//! chains of jobs that a crash cut between two steps (`resume_interrupted_chains`).

use std::future::Future;
use std::time::Duration;

use outreach_core::Context;
use outreach_core::platform::jobs::{ExpireSubscriptions, IngestReplies, SendFollowUps};
use outreach_core::platform::telemetry;

/// How often a schedule produces a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Every {
    /// Once per UTC day; the tick is the date.
    Day,
    /// Every this many minutes; the tick is the start of the period (`2026-11-21T10:05`).
    Minutes(i64),
}

#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub name: &'static str,
    pub every: Every,
}

pub const SCHEDULES: &[Schedule] = &[
    Schedule {
        name: "expire-subscriptions",
        every: Every::Day,
    },
    // Replies to SMTP senders, read from their IMAP mailboxes.
    Schedule {
        name: "ingest-replies",
        every: Every::Minutes(5),
    },
    // Follow-ups that became due (issue 19).
    Schedule {
        name: "send-follow-ups",
        every: Every::Minutes(1),
    },
    // Each active automation's run of the day (issue 21).
    Schedule {
        name: "run-automations",
        every: Every::Day,
    },
];

impl Schedule {
    /// The tick containing `now_ms`.
    pub fn tick(&self, now_ms: i64) -> String {
        match self.every {
            Every::Day => chrono::DateTime::from_timestamp_millis(now_ms)
                .unwrap_or_default()
                .format("%Y-%m-%d")
                .to_string(),
            Every::Minutes(minutes) => {
                let period = minutes * 60_000;
                chrono::DateTime::from_timestamp_millis(now_ms.div_euclid(period) * period)
                    .unwrap_or_default()
                    .format("%Y-%m-%dT%H:%M")
                    .to_string()
            }
        }
    }

    /// Enqueues this schedule's jobs for the current tick; `false` when they were already enqueued.
    pub async fn fire(&self, ctx: &Context) -> anyhow::Result<bool> {
        let tick = self.tick(ctx.now_ms());
        let key = format!("{}:{tick}", self.name);
        let enqueued = match self.name {
            "expire-subscriptions" => {
                ctx.queue
                    .enqueue(ExpireSubscriptions { tick }, Some(&key))
                    .await?
            }
            "ingest-replies" => {
                let mut any = false;
                for config_id in ctx.db.inbound().imap_mailboxes().await? {
                    let job = IngestReplies {
                        config_id,
                        tick: tick.clone(),
                    };
                    let key = format!("{key}:{config_id}");
                    any |= ctx.queue.enqueue(job, Some(&key)).await?;
                }
                any
            }
            "send-follow-ups" => {
                ctx.queue
                    .enqueue(SendFollowUps { tick }, Some(&key))
                    .await?
            }
            // One run record and job per automation and day, each keyed by both.
            "run-automations" => {
                outreach_core::automations::start_daily_runs(ctx, &tick).await? > 0
            }
            other => anyhow::bail!("schedule {other} has no job"),
        };
        Ok(enqueued)
    }
}

/// What one pass over the chains of jobs queued again, by chain.
pub type Resumed = Vec<(&'static str, usize)>;

/// Queues the next step of every chain of jobs that a crash cut between a step's commit and the queueing of the next
/// one: a search's next chunk, a business's website lookup, an automation's run, messages written without their
/// sending job (launches, follow-ups, answers) and a reply's reading. Each step is looked for first (by its key, or
/// among the jobs not done), so a chain that is whole gets nothing; only work older than one lease is looked at, so
/// a producer between its two steps right now is left to finish.
pub async fn resume_interrupted_chains(ctx: &Context) -> anyhow::Result<Resumed> {
    use outreach_core::{automations, discovery, inbound, sending};
    let before = ctx.now_ms() - ctx.settings.queue.lease_seconds as i64 * 1_000;
    // In the order of telemetry::CHAINS.
    let resumed = vec![
        (
            "search",
            discovery::resume::resume_searches(ctx, before).await?,
        ),
        (
            "enrichment",
            discovery::resume::resume_enrichment(ctx).await?,
        ),
        ("automation", automations::resume_runs(ctx, before).await?),
        (
            "send",
            sending::recovery::requeue_waiting_messages(ctx, before).await?,
        ),
        (
            "classification",
            inbound::replies::resume_classification(ctx, before).await?,
        ),
    ];
    for (chain, count) in &resumed {
        if *count > 0 {
            tracing::warn!(chain, count, "chains cut by a crash resumed");
            telemetry::chain_resumed(chain, *count);
        }
    }
    Ok(resumed)
}

/// Fires every due schedule once, then resumes interrupted chains; returns how many scheduled jobs were enqueued.
pub async fn tick(ctx: &Context) -> usize {
    telemetry::scheduler_tick(ctx.now_ms());
    let mut enqueued = 0;
    for schedule in SCHEDULES {
        match schedule.fire(ctx).await {
            Ok(true) => {
                tracing::info!(schedule = schedule.name, "scheduled job enqueued");
                enqueued += 1;
            }
            Ok(false) => {}
            Err(error) => {
                tracing::warn!(schedule = schedule.name, error = %format!("{error:#}"), "schedule failed")
            }
        }
    }
    if let Err(error) = resume_interrupted_chains(ctx).await {
        tracing::warn!(error = %format!("{error:#}"), "resuming interrupted chains failed");
    }
    enqueued
}

/// Checks the schedules every `scheduler.tick_seconds` until `shutdown` resolves.
pub async fn run(ctx: Context, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
    let mut interval = tokio::time::interval(Duration::from_secs(
        ctx.settings.scheduler.tick_seconds.max(1),
    ));
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => return Ok(()),
            _ = interval.tick() => { tick(&ctx).await; }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daily_ticks_are_utc_dates() {
        let schedule = SCHEDULES[0];
        assert_eq!(schedule.tick(0), "1970-01-01");
        assert_eq!(schedule.tick(86_400_000 - 1), "1970-01-01");
        assert_eq!(schedule.tick(86_400_000), "1970-01-02");
    }

    #[test]
    fn minute_ticks_start_their_period() {
        let schedule = Schedule {
            name: "ingest-replies",
            every: Every::Minutes(5),
        };
        assert_eq!(schedule.tick(0), "1970-01-01T00:00");
        assert_eq!(schedule.tick(299_999), "1970-01-01T00:00");
        assert_eq!(schedule.tick(300_000), "1970-01-01T00:05");
    }
}
