//! The worker: one apalis worker per job kind on the configured storage, on a runtime of its own, with per-process
//! concurrency from config, retries with exponential backoff, job metrics and the queue-depth gauge. Nothing one
//! job does stops the others: a job that panics fails like an error and the worker goes on, and a worker whose fetch
//! fails (a row it cannot read) is started again, with the unreadable row set aside as failed.

pub mod handlers;

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use apalis::prelude::{
    Attempt, BackendExt, BackoffConfig, BoxDynError, Data, Monitor, TaskId, WorkerBuilder,
    WorkerBuilderExt, WorkerContext, WorkerError,
};
use futures::FutureExt;
use outreach_core::platform::faults::{self, panic_message};
use outreach_core::platform::jobs::{
    ClassifyReply, EnrichBusiness, ExpireSubscriptions, GenerateEmail, IngestReplies, Job, KINDS,
    RunAutomation, RunSearchChunk, SendCampaignEmail, SendFollowUps,
};
use outreach_core::platform::queue::retry_delay_ms;
use outreach_core::platform::security::random_token;
use outreach_core::platform::telemetry;
use outreach_core::sending::pacing::Pacer;
use outreach_core::sending::recovery::recover_interrupted_sends;
use outreach_core::sending::slots::{SenderSlots, SlotLimits};
use outreach_core::{Context, Db};

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

/// A job kind this worker runs: what it does (a handler of `handlers`, or a use case of core), and how many of it
/// one process runs at once.
trait Runs: Job {
    fn run<'a>(
        job: &'a Self,
        ctx: &'a Context,
        env: &'a Env,
    ) -> impl Future<Output = anyhow::Result<()>> + Send + 'a;

    fn concurrency(ctx: &Context) -> usize {
        ctx.settings.queue.concurrency
    }
}

/// What every job of this process shares besides the context: whether the process is stopping, and the send slots.
#[derive(Clone)]
struct Env {
    stopping: Stopping,
    slots: SenderSlots,
}

impl Runs for ExpireSubscriptions {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::expire_subscriptions(ctx, job).await.map(drop)
    }
}

impl Runs for GenerateEmail {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::generate_email(ctx, job).await
    }
}

impl Runs for RunSearchChunk {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::run_search_chunk(ctx, job).await?;
        // An automation's run waiting for this search goes on when it ends.
        Ok(outreach_core::automations::search_ended(ctx, job.search_id).await?)
    }
}

impl Runs for EnrichBusiness {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::enrich_business(ctx, job).await
    }

    /// Reading websites is waiting on other servers: many at once, each site still one page at a time.
    fn concurrency(ctx: &Context) -> usize {
        ctx.settings.crawler.concurrency
    }
}

impl Runs for SendCampaignEmail {
    async fn run(job: &Self, ctx: &Context, env: &Env) -> anyhow::Result<()> {
        let _running = env.stopping.sending();
        let is_stopping = || env.stopping.is_set();
        outreach_core::sending::batch::send_campaign_email(ctx, job, &is_stopping, &env.slots).await
    }
}

impl Runs for IngestReplies {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::ingest_replies(ctx, job).await
    }
}

impl Runs for SendFollowUps {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::send_follow_ups(ctx, job).await
    }
}

impl Runs for ClassifyReply {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::classify_reply(ctx, job).await
    }
}

impl Runs for RunAutomation {
    async fn run(job: &Self, ctx: &Context, _: &Env) -> anyhow::Result<()> {
        handlers::run_automation(ctx, job).await
    }
}

/// One job kind as the process runs it: its queue worker, and how a stored payload is read.
struct Kind {
    name: &'static str,
    register: fn(Monitor, &Context, &Env) -> Monitor,
    readable: fn(&[u8]) -> Result<(), serde_json::Error>,
}

impl Kind {
    const fn of<J: Runs>() -> Self {
        Kind {
            name: J::KIND,
            register: register::<J>,
            readable: readable::<J>,
        }
    }
}

/// Every job kind the worker runs.
const RUNS: [Kind; 9] = [
    Kind::of::<ExpireSubscriptions>(),
    Kind::of::<GenerateEmail>(),
    Kind::of::<RunSearchChunk>(),
    Kind::of::<EnrichBusiness>(),
    Kind::of::<SendCampaignEmail>(),
    Kind::of::<IngestReplies>(),
    Kind::of::<SendFollowUps>(),
    Kind::of::<ClassifyReply>(),
    Kind::of::<RunAutomation>(),
];

fn readable<J: Job>(payload: &[u8]) -> Result<(), serde_json::Error> {
    serde_json::from_slice::<J>(payload).map(drop)
}

/// Registers the apalis worker of one job kind on the context's backend.
fn register<J: Runs>(monitor: Monitor, ctx: &Context, env: &Env) -> Monitor {
    let (ctx, env) = (ctx.clone(), env.clone());
    let concurrency = J::concurrency(&ctx).max(1);
    match ctx.db.clone() {
        Db::Postgres(pool) => {
            let config = ctx.queue.postgres_config(J::KIND);
            monitor.register(move |restarts| {
                let storage =
                    apalis_postgres::PostgresStorage::<J>::new(&pool).with_config(config.clone());
                WorkerBuilder::new(worker_name(J::KIND, restarts))
                    // LISTEN/NOTIFY: an idle worker wakes at once instead of at the next poll.
                    .backend(storage.with_pubsub())
                    .concurrency(concurrency)
                    .data(ctx.clone())
                    .data(env.clone())
                    .build(task::<J>)
            })
        }
        // Not the writer connection: a stopping apalis worker can keep a fetch's connection until the worker is
        // dropped, and with the one writer held, jobs still running could not record their work.
        Db::Sqlite { readers: pool, .. } => {
            let config = ctx.queue.sqlite_config(J::KIND);
            monitor.register(move |restarts| {
                // SQLite has no notifications: poll every 100 ms while busy, backing off to 1 s when idle (without
                // a strategy the storage fetches only on its heartbeat).
                let storage = apalis_sqlite::SqliteStorage::<J>::new(&pool)
                    .with_config(config.clone())
                    .poll_with_backoff(SQLITE_POLL, BackoffConfig::new(SQLITE_POLL_MAX));
                WorkerBuilder::new(worker_name(J::KIND, restarts))
                    .backend(storage)
                    .concurrency(concurrency)
                    .data(ctx.clone())
                    .data(env.clone())
                    .build(task::<J>)
            })
        }
    }
}

/// The queue's entry to a job: its kind's work, observed.
async fn task<J: Runs>(
    job: J,
    ctx: Data<Context>,
    env: Data<Env>,
    id: TaskId,
    attempt: Attempt,
) -> Result<(), BoxDynError> {
    let key = || serde_json::to_string(&job).unwrap_or_default();
    observe::<J, _>(&ctx, &id, &attempt, key, J::run(&job, &ctx, &env)).await
}

/// A queue worker stopped on a row it cannot read (a payload written by hand, or by a version whose payloads
/// differ, or an id that is not a ULID, which apalis fails on before it takes the row): it is started again, and the rows it held are looked at, so the unreadable one fails for good instead of
/// stopping every worker that fetches it. Any other error of the queue (the database gone, its pool closed) ends the
/// worker as before: starting it again at once would only spin.
fn restart_after(
    ctx: &Context,
    stopping: &Stopping,
    worker: &WorkerContext,
    error: &WorkerError,
) -> bool {
    // A payload apalis cannot decode is its CodecError; an id that is not a ULID is sqlx's Decode of the row.
    let unreadable = matches!(error, WorkerError::BackendError(_)) && {
        let error = format!("{error:?}");
        error.contains("CodecError") || error.contains("Decode(")
    };
    if !unreadable || stopping.is_set() {
        return false;
    }
    let name = worker.name().to_string();
    let Some(kind) = RUNS
        .iter()
        .find(|kind| name.starts_with(&format!("{}-", kind.name)))
    else {
        return true;
    };
    tracing::error!(worker = %name, %error, "a queue worker stopped; it is started again");
    telemetry::worker_restarted(kind.name);
    let (ctx, readable, kind) = (ctx.clone(), kind.readable, kind.name);
    tokio::spawn(async move {
        match ctx
            .queue
            .set_aside_unreadable((&name, kind), readable, ctx.now_ms())
            .await
        {
            Ok(0) => {}
            Ok(count) => {
                telemetry::jobs_unreadable(kind, count);
                tracing::error!(
                    kind,
                    count,
                    "job rows that cannot be read were set aside as failed"
                );
            }
            Err(error) => tracing::warn!(%error, "the stopped worker's jobs were not looked at"),
        }
    });
    true
}

/// Runs every job kind's worker on the caller's runtime until `shutdown` resolves (`run` gives it a runtime of
/// its own).
async fn run_workers(
    ctx: Context,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // Set when the stop begins: long jobs end between items instead of being cut off (see `Stopping`).
    let stopping = Stopping::default();
    let pacer = Pacer::new(&ctx.settings.sending, ctx.clock.clone());
    let limits = SlotLimits::new(
        ctx.settings.sending.sender_concurrency,
        ctx.settings.sending.user_concurrency,
        ctx.settings.queue.concurrency,
    );
    let slots = SenderSlots::new(limits, pacer);
    // The lease is held before anything is claimed under it; the keeper renews it and reconciles what crashed
    // workers left behind.
    let lease_ms = ctx.settings.queue.lease_seconds.max(1) as i64 * 1000;
    ctx.db
        .sending()
        .renew_lease(slots.lease(), ctx.now_ms() + lease_ms)
        .await?;
    reconcile(&ctx).await?;
    // The lease keeper and the queue reporter end between their rounds, never inside a query: a query cut in the
    // middle leaves its connection unreadable, and the next job handed that connection would wait on it for ever.
    let (end_rounds, rounds_ended) = tokio::sync::watch::channel(false);
    let keeper = tokio::spawn(keep_lease(
        ctx.clone(),
        slots.lease().into(),
        lease_ms,
        rounds_ended.clone(),
    ));
    let env = Env {
        stopping: stopping.clone(),
        slots: slots.clone(),
    };
    let (restart_ctx, restart_stopping) = (ctx.clone(), stopping.clone());
    let monitor = RUNS.iter().fold(
        Monitor::new()
            .shutdown_timeout(SHUTDOWN_TIMEOUT)
            .should_restart(move |worker, error| {
                restart_after(&restart_ctx, &restart_stopping, worker, error)
            }),
        |monitor, kind| (kind.register)(monitor, &ctx, &env),
    );
    let reporter = tokio::spawn(report_queue_depth(ctx.clone(), rounds_ended));
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
    end_rounds.send(true).ok();
    for mut task in [reporter, keeper] {
        // A round waits for the database at most its pool's timeout; past a bound the task is cut after all.
        if tokio::time::timeout(SHUTDOWN_TIMEOUT, &mut task)
            .await
            .is_err()
        {
            tracing::warn!("a worker's background task did not end its round; stopped");
            task.abort();
        }
    }
    // Every send settled: nothing is left under this lease.
    if let Err(error) = ctx
        .db
        .sending()
        .release_lease(slots.lease(), ctx.now_ms())
        .await
    {
        tracing::warn!(%error, "the lease was not released; it expires by itself");
    }
    result.map_err(|error| anyhow::anyhow!("worker stopped: {error}"))
}

/// Runs every job kind's worker until `shutdown` resolves, on a runtime of the worker's own with
/// `queue.worker_threads` threads, in a thread of its own: the API and the scheduler of the same process keep
/// theirs, and the worker's one thread by default sends faster on a small machine than two that keep waking each
/// other (see `QueueSettings::worker_threads`). Ends when the worker has stopped.
pub async fn run(
    ctx: Context,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    match ctx.settings.queue.worker_threads {
        0 => &mut runtime,
        threads => runtime.worker_threads(threads),
    };
    let runtime = runtime
        .thread_name("outreach-worker")
        .enable_all()
        .build()?;
    let (done, ended) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("outreach-worker-main".into())
        .spawn(move || {
            // Spawned, so that all of it runs on the runtime's threads and this one only waits.
            let worker = runtime.spawn(async move {
                let db = ctx.db.for_this_runtime().await?;
                // A pool opened here is this runtime's to close; SQLite's stays the process's.
                let own = matches!(db, Db::Postgres(_));
                let outcome = run_workers(ctx.with_db(db.clone()), shutdown).await;
                if own {
                    db.close().await;
                }
                outcome
            });
            let outcome = runtime
                .block_on(worker)
                .unwrap_or_else(|error| Err(anyhow::anyhow!("the worker failed: {error}")));
            // Whatever the worker left running ends before the caller hears that it has stopped.
            runtime.shutdown_timeout(SHUTDOWN_TIMEOUT);
            done.send(outcome).ok();
        })?;
    ended.await.unwrap_or_else(|_| {
        Err(anyhow::anyhow!(
            "the worker's thread ended without its outcome"
        ))
    })
}

/// Settles what crashed workers left in sending (`sending::recovery`): never tried goes back to the queue, taken is
/// sent, under way is uncertain.
async fn reconcile(ctx: &Context) -> anyhow::Result<()> {
    let recovered = recover_interrupted_sends(ctx).await?;
    if recovered.any() {
        tracing::warn!(
            requeued = recovered.requeued,
            sent = recovered.sent,
            uncertain = recovered.uncertain,
            "sends interrupted by a stopped worker settled"
        );
    }
    Ok(())
}

/// Renews this process's lease every third of its length, and reconciles crashed workers' sends as often.
async fn keep_lease(
    ctx: Context,
    lease: Arc<str>,
    lease_ms: i64,
    mut ended: tokio::sync::watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(Duration::from_millis((lease_ms / 3).max(100) as u64));
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while next_round(&mut interval, &mut ended).await {
        if let Err(error) = ctx
            .db
            .sending()
            .renew_lease(&lease, ctx.now_ms() + lease_ms)
            .await
        {
            tracing::warn!(%error, "the worker's lease was not renewed");
        }
        if let Err(error) = reconcile(&ctx).await {
            tracing::warn!(%error, "interrupted sends were not reconciled");
        }
    }
}

/// Records the outcome and duration of a job; on failure keeps it out of the fetch for the backoff delay,
/// after which apalis fetches it again until `max_attempts`. A job that panics fails like any error, with the
/// panic's message as its last error: the worker goes on with the next job.
async fn observe<J: Job, T>(
    ctx: &Context,
    id: &TaskId,
    attempt: &Attempt,
    key: impl FnOnce() -> String,
    work: impl Future<Output = anyhow::Result<T>>,
) -> Result<(), BoxDynError> {
    let started = Instant::now();
    let guarded = async {
        faults::point_with("job", || format!("{}:{}", J::KIND, key()));
        work.await
    };
    let result = match AssertUnwindSafe(guarded).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => {
            telemetry::job_panicked(J::KIND);
            Err(anyhow::anyhow!(
                "the job panicked: {}",
                panic_message(&*panic)
            ))
        }
    };
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

/// Worker ids are unique across processes and restarts (the storage keys workers by name); the kind comes first.
fn worker_name(kind: &str, restarts: usize) -> String {
    format!(
        "{kind}-{}-{}-{restarts}",
        std::process::id(),
        random_token(6)
    )
}

/// Publishes the queue's gauges (depth and oldest due job per kind) and the quota headroom every 15 seconds.
async fn report_queue_depth(ctx: Context, mut ended: tokio::sync::watch::Receiver<bool>) {
    let mut interval = tokio::time::interval(Duration::from_secs(15));
    while next_round(&mut interval, &mut ended).await {
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
        if let Err(error) = ctx.db.admin().report_quota_headroom(now).await {
            tracing::warn!(%error, "could not read the quota headroom");
        }
    }
}

/// Waits for a background task's next round; false once the worker is stopping.
async fn next_round(
    interval: &mut tokio::time::Interval,
    ended: &mut tokio::sync::watch::Receiver<bool>,
) -> bool {
    let ticked = tokio::select! {
        _ = interval.tick() => true,
        _ = ended.wait_for(|ended| *ended) => false,
    };
    ticked && !*ended.borrow()
}

/// Runs the workers until the queue has nothing waiting, running or due for a retry, then stops them (jobs
/// scheduled for later stay for later). Used by tests (no sleeps) and by the benchmarks.
pub async fn run_until_idle(ctx: Context, limit: Duration) -> anyhow::Result<()> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(run(ctx.clone(), async move {
        stopped.await.ok();
    }));
    let outcome = wait_until_idle(&ctx, limit).await;
    stop.send(()).ok();
    workers.await??;
    outcome
}

/// Waits until the queue has nothing waiting, running or due for a retry (workers running elsewhere drain it),
/// looking every 20 ms; an error after `limit`.
pub async fn wait_until_idle(ctx: &Context, limit: Duration) -> anyhow::Result<()> {
    let deadline = Instant::now() + limit;
    loop {
        let real_now = outreach_core::platform::clock::Clock::now_ms(
            &outreach_core::platform::clock::SystemClock,
        );
        let waiting = ctx.queue.due(real_now).await?;
        if waiting == 0 {
            return Ok(());
        }
        if Instant::now() > deadline {
            anyhow::bail!("{waiting} job(s) still waiting after {limit:?}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
