//! The worker: one apalis worker per job kind on the configured storage, with per-process concurrency from config,
//! retries with exponential backoff, job metrics and the queue-depth gauge.

pub mod handlers;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use apalis::prelude::{
    Attempt, BackendExt, BackoffConfig, BoxDynError, Data, Monitor, TaskId, WorkerBuilder,
    WorkerBuilderExt,
};
use outreach_core::platform::jobs::{
    ClassifyReply, EnrichBusiness, ExpireSubscriptions, GenerateEmail, IngestReplies, Job, KINDS,
    RunAutomation, RunSearchChunk, SendCampaignEmail, SendFollowUps,
};
use outreach_core::platform::queue::retry_delay_ms;
use outreach_core::platform::security::random_token;
use outreach_core::platform::telemetry;
use outreach_core::sending::pacing::Pacer;
use outreach_core::sending::slots::SenderSlots;
use outreach_core::{Context, Db};

/// A claim made before leases existed (no `claimed_by`) older than this cannot belong to a live send.
const INTERRUPTED_AFTER_MS: i64 = 10 * 60 * 1000;
const SQLITE_POLL: Duration = Duration::from_millis(100);
const SQLITE_POLL_MAX: Duration = Duration::from_secs(1);

/// How long a stop waits for send batches in flight to record their sends and hand the rest back, before the
/// queue's workers are stopped (and given `SHUTDOWN_TIMEOUT` more).
const SENDS_SETTLE_TIMEOUT: Duration = Duration::from_secs(30);
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether this worker process is stopping. A job that works through many items (a batch of messages) checks it
/// between items and hands the rest to a new job, so a stop never cuts a send in half.
#[derive(Debug, Clone, Default)]
pub struct Stopping {
    flag: Arc<AtomicBool>,
    /// Send batches running now.
    sending: Arc<AtomicUsize>,
}

impl Stopping {
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// Counts a send batch as running until the guard is dropped; not one that starts after the stop began (it
    /// hands its messages over at once, see `outreach_core::sending::batch`).
    fn sending(&self) -> Option<SendingGuard> {
        self.sending.fetch_add(1, Ordering::SeqCst);
        let guard = SendingGuard(self.sending.clone());
        (!self.is_set()).then_some(guard)
    }

    /// Sets the flag, then waits until no send batch runs (at most `limit`). The queue's workers keep running
    /// meanwhile: once apalis stops, a fetch it began may keep its connection, and with it SQLite's writer or
    /// write lock, until the worker is dropped, and a batch could then not record what it sent.
    async fn stop_and_settle_sends(&self, limit: Duration) {
        self.flag.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + limit;
        while self.sending.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

struct SendingGuard(Arc<AtomicUsize>);

impl Drop for SendingGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Registers the apalis worker of one job kind on the backend of `$ctx`.
macro_rules! register {
    ($monitor:expr, $ctx:expr, $stopping:expr, $slots:expr, $job:ty, $task:path) => {
        register!($monitor, $ctx, $stopping, $slots, $job, $task, $ctx.settings.queue.concurrency)
    };
    ($monitor:expr, $ctx:expr, $stopping:expr, $slots:expr, $job:ty, $task:path, $concurrency:expr) => {{
        let ctx: Context = $ctx.clone();
        let stopping: Stopping = $stopping.clone();
        let slots: SenderSlots = $slots.clone();
        let concurrency = ($concurrency).max(1);
        let kind = <$job as Job>::KIND;
        match ctx.db.clone() {
            Db::Postgres(pool) => {
                let config = ctx.queue.postgres_config(kind);
                $monitor.register(move |index| {
                    let storage = apalis_postgres::PostgresStorage::<$job>::new(&pool)
                        .with_config(config.clone());
                    WorkerBuilder::new(worker_name(kind, index))
                        // LISTEN/NOTIFY: an idle worker wakes at once instead of at the next poll.
                        .backend(storage.with_pubsub())
                        .concurrency(concurrency)
                        .data(ctx.clone())
                        .data(stopping.clone())
                        .data(slots.clone())
                        .build($task)
                })
            }
            // Not the writer connection: a stopping apalis worker can keep a fetch's connection until the worker is
            // dropped, and with the one writer held, jobs still running could not record their work.
            Db::Sqlite { readers: pool, .. } => {
                let config = ctx.queue.sqlite_config(kind);
                $monitor.register(move |index| {
                    // SQLite has no notifications: poll every 100 ms while busy, backing off to 1 s when idle
                    // (without a strategy the storage fetches only on its heartbeat).
                    let storage = apalis_sqlite::SqliteStorage::<$job>::new(&pool)
                        .with_config(config.clone())
                        .poll_with_backoff(SQLITE_POLL, BackoffConfig::new(SQLITE_POLL_MAX));
                    WorkerBuilder::new(worker_name(kind, index))
                        .backend(storage)
                        .concurrency(concurrency)
                        .data(ctx.clone())
                        .data(stopping.clone())
                        .data(slots.clone())
                        .build($task)
                })
            }
        }
    }};
}

/// Runs every job kind's worker until `shutdown` resolves.
pub async fn run(
    ctx: Context,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // Set when the stop begins: long jobs end between items instead of being cut off (see `Stopping`).
    let stopping = Stopping::default();
    let pacer = Pacer::new(&ctx.settings.sending, ctx.clock.clone());
    let slots = SenderSlots::new(ctx.settings.sending.sender_concurrency, pacer);
    // The lease is held before anything is claimed under it; the keeper renews it and reconciles what crashed
    // workers left behind.
    let lease_ms = ctx.settings.queue.lease_seconds.max(1) as i64 * 1000;
    ctx.db
        .renew_lease(slots.lease(), ctx.now_ms() + lease_ms)
        .await?;
    reconcile(&ctx).await?;
    let keeper = tokio::spawn(keep_lease(ctx.clone(), slots.lease().into(), lease_ms));
    let monitor = Monitor::new().shutdown_timeout(SHUTDOWN_TIMEOUT);
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        ExpireSubscriptions,
        expire_subscriptions_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        GenerateEmail,
        generate_email_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        RunSearchChunk,
        run_search_chunk_task
    );
    // Reading websites is waiting on other servers: many at once, each site still one page at a time.
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        EnrichBusiness,
        enrich_business_task,
        ctx.settings.crawler.concurrency
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        SendCampaignEmail,
        send_campaign_email_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        IngestReplies,
        ingest_replies_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        SendFollowUps,
        send_follow_ups_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        ClassifyReply,
        classify_reply_task
    );
    let monitor = register!(
        monitor,
        ctx,
        stopping,
        slots,
        RunAutomation,
        run_automation_task
    );
    let reporter = tokio::spawn(report_queue_depth(ctx.clone()));
    let result = monitor
        .run_with_signal({
            let stopping = stopping.clone();
            async move {
                shutdown.await;
                stopping.stop_and_settle_sends(SENDS_SETTLE_TIMEOUT).await;
                Ok(())
            }
        })
        .await;
    reporter.abort();
    keeper.abort();
    // Every send settled: nothing is left under this lease.
    if let Err(error) = ctx.db.release_lease(slots.lease(), ctx.now_ms()).await {
        tracing::warn!(%error, "the lease was not released; it expires by itself");
    }
    result.map_err(|error| anyhow::anyhow!("worker stopped: {error}"))
}

/// Messages a crashed worker left in sending may have reached the provider: they are marked failed, never resent,
/// and their campaigns finish.
async fn reconcile(ctx: &Context) -> anyhow::Result<()> {
    let now = ctx.now_ms();
    let interrupted = ctx
        .db
        .reconcile_interrupted_sends(now - INTERRUPTED_AFTER_MS, now)
        .await?;
    if interrupted > 0 {
        tracing::warn!(
            interrupted,
            "sends interrupted by a stopped worker marked failed"
        );
    }
    Ok(())
}

/// Renews this process's lease every third of its length, and reconciles crashed workers' sends as often.
async fn keep_lease(ctx: Context, lease: Arc<str>, lease_ms: i64) {
    let mut interval = tokio::time::interval(Duration::from_millis((lease_ms / 3).max(100) as u64));
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        interval.tick().await;
        if let Err(error) = ctx.db.renew_lease(&lease, ctx.now_ms() + lease_ms).await {
            tracing::warn!(%error, "the worker's lease was not renewed");
        }
        if let Err(error) = reconcile(&ctx).await {
            tracing::warn!(%error, "interrupted sends were not reconciled");
        }
    }
}

async fn expire_subscriptions_task(
    job: ExpireSubscriptions,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<ExpireSubscriptions, _>(
        &ctx,
        &id,
        &attempt,
        handlers::expire_subscriptions(&ctx, &job),
    )
    .await
}

async fn generate_email_task(
    job: GenerateEmail,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<GenerateEmail, _>(&ctx, &id, &attempt, handlers::generate_email(&ctx, &job)).await
}

async fn run_search_chunk_task(
    job: RunSearchChunk,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<RunSearchChunk, _>(&ctx, &id, &attempt, handlers::run_search_chunk(&ctx, &job)).await
}

async fn enrich_business_task(
    job: EnrichBusiness,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<EnrichBusiness, _>(&ctx, &id, &attempt, handlers::enrich_business(&ctx, &job)).await
}

async fn ingest_replies_task(
    job: IngestReplies,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<IngestReplies, _>(&ctx, &id, &attempt, handlers::ingest_replies(&ctx, &job)).await
}

async fn run_automation_task(
    job: RunAutomation,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<RunAutomation, _>(&ctx, &id, &attempt, handlers::run_automation(&ctx, &job)).await
}

async fn classify_reply_task(
    job: ClassifyReply,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<ClassifyReply, _>(&ctx, &id, &attempt, handlers::classify_reply(&ctx, &job)).await
}

async fn send_follow_ups_task(
    job: SendFollowUps,
    ctx: Data<Context>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    observe::<SendFollowUps, _>(&ctx, &id, &attempt, handlers::send_follow_ups(&ctx, &job)).await
}

async fn send_campaign_email_task(
    job: SendCampaignEmail,
    ctx: Data<Context>,
    stopping: Data<Stopping>,
    slots: Data<SenderSlots>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    let _running = stopping.sending();
    let is_stopping = || stopping.is_set();
    let work = outreach_core::sending::batch::send_campaign_email(&ctx, &job, &is_stopping, &slots);
    observe::<SendCampaignEmail, _>(&ctx, &id, &attempt, work).await
}

/// Records the outcome and duration of a job; on failure keeps it out of the fetch for the backoff delay,
/// after which apalis fetches it again until `max_attempts`.
async fn observe<J: Job, T>(
    ctx: &Context,
    id: &TaskId,
    attempt: &Attempt,
    work: impl Future<Output = anyhow::Result<T>>,
) -> Result<(), BoxDynError> {
    let started = Instant::now();
    let result = work.await;
    let outcome = if result.is_ok() { "success" } else { "failure" };
    metrics::counter!("outreach_jobs_total", "job" => J::KIND, "outcome" => outcome).increment(1);
    metrics::histogram!("outreach_job_duration_seconds", "job" => J::KIND)
        .record(started.elapsed().as_secs_f64());
    match result {
        Ok(_) => Ok(()),
        Err(error) => {
            // apalis counts the running attempt, so this is 1 on the first failure.
            let failures = attempt.current().max(1);
            let retry_at = ctx.now_ms() + retry_delay_ms(&ctx.settings.queue, failures);
            if let Err(defer_error) = ctx.queue.defer(&id.to_string(), retry_at).await {
                tracing::warn!(%defer_error, "could not delay the retry");
            }
            tracing::warn!(job = J::KIND, %id, failures, error = %format!("{error:#}"), "job failed");
            Err(format!("{error:#}").into())
        }
    }
}

/// Worker ids are unique across processes and restarts (the storage keys workers by name).
fn worker_name(kind: &str, index: usize) -> String {
    format!("{kind}-{}-{}-{index}", std::process::id(), random_token(6))
}

/// Publishes the queue's gauges (depth and oldest due job per kind) and the quota headroom every 15 seconds.
async fn report_queue_depth(ctx: Context) {
    let mut interval = tokio::time::interval(Duration::from_secs(15));
    loop {
        interval.tick().await;
        let now = ctx.now_ms();
        match ctx.queue.depth(now).await {
            Ok(depths) => {
                for kind in KINDS {
                    let line = depths.iter().find(|line| line.job_type == *kind);
                    let waiting = line.map_or(0, |line| line.waiting);
                    let oldest = line
                        .and_then(|line| line.oldest_due)
                        .map_or(0, |due| now / 1000 - due);
                    telemetry::queue(kind, waiting, oldest);
                }
            }
            Err(error) => tracing::warn!(%error, "could not read the queue depth"),
        }
        if let Err(error) = ctx.db.report_quota_headroom(now).await {
            tracing::warn!(%error, "could not read the quota headroom");
        }
    }
}

/// Runs the workers until the queue has nothing waiting, running or due for a retry, then stops them (jobs
/// scheduled for later stay for later). Used by tests (no sleeps) and by the drain benchmark.
pub async fn run_until_idle(ctx: Context, limit: Duration) -> anyhow::Result<()> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(run(ctx.clone(), async move {
        stopped.await.ok();
    }));
    let deadline = Instant::now() + limit;
    let outcome = loop {
        let real_now = outreach_core::platform::clock::Clock::now_ms(
            &outreach_core::platform::clock::SystemClock,
        );
        let waiting = ctx.queue.due(real_now).await?;
        if waiting == 0 {
            break Ok(());
        }
        if Instant::now() > deadline {
            break Err(anyhow::anyhow!(
                "{waiting} job(s) still waiting after {limit:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    stop.send(()).ok();
    workers.await??;
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stop_waits_for_the_send_batches_that_began_before_it_and_only_those() {
        let stopping = Stopping::default();
        let running = stopping.sending().expect("counted before the stop");
        let settle = tokio::spawn({
            let stopping = stopping.clone();
            async move {
                stopping
                    .stop_and_settle_sends(Duration::from_secs(30))
                    .await
            }
        });
        while !stopping.is_set() {
            tokio::task::yield_now().await;
        }
        assert!(
            stopping.sending().is_none(),
            "a batch that starts during the stop hands over and is not waited for"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!settle.is_finished(), "the batch in flight is waited for");
        drop(running);
        tokio::time::timeout(Duration::from_secs(5), settle)
            .await
            .expect("the stop ends once the batch has settled")
            .unwrap();
    }
}
