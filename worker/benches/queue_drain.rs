//! Queue drain rate: with the workers up, enqueue N jobs at once and time the workers until the queue is empty, for
//! several fetch batch sizes and worker concurrencies. Runs on PostgreSQL (`BENCH_DATABASE_URL`, e.g.
//! postgres://postgres@127.0.0.1:5432/postgres) and on SQLite; each run gets a fresh database. On PostgreSQL the same
//! jobs are also drained by a plain `FOR UPDATE SKIP LOCKED` loop over a table of their own (claim a batch, run each
//! job's handler, mark the batch done), the least a queue can do, and apalis's rate is reported against it (issue
//! 32.4). `make bench` runs it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::ExpireSubscriptions;
use outreach_core::testing::TestDb;
use outreach_core::testing::goals::{Goal, report};
use outreach_core::{Context, Db, Settings};

const JOBS: usize = 5_000;
/// How long a drain may take before the run fails instead of waiting for ever.
const LIMIT: Duration = Duration::from_secs(600);
const BATCH_SIZES: &[usize] = &[10, 50, 200, 500];
const CONCURRENCY: &[usize] = &[8, 32];

#[tokio::main]
async fn main() {
    let postgres = std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty());
    let defaults = Settings::default().queue;
    println!("{JOBS} ExpireSubscriptions jobs per run");
    for &concurrency in CONCURRENCY {
        for &batch in BATCH_SIZES {
            let at_defaults = (concurrency, batch) == (defaults.concurrency, defaults.batch_size);
            if let Some(url) = &postgres {
                let raw = drain_raw(TestDb::postgres(url).await, batch, concurrency).await;
                let rates = drain(TestDb::postgres(url).await, batch, concurrency).await;
                let rate = rates.drained;
                println!(
                    "postgres  concurrency {concurrency:>3}  batch {batch:>4}: {rate:>8.0} jobs/s  \
                     (SKIP LOCKED loop {raw:>8.0} jobs/s, ratio {:.2}; {:.0} jobs/s with the workers' start)",
                    rate / raw,
                    rates.with_start
                );
                if at_defaults {
                    report(
                        "S4",
                        "apalis ÷ SKIP LOCKED loop, postgres, default settings",
                        rate / raw,
                        "",
                        Goal::AtLeast(0.5),
                    );
                }
            }
            let rates = drain(TestDb::sqlite().await, batch, concurrency).await;
            let rate = rates.drained;
            println!(
                "sqlite    concurrency {concurrency:>3}  batch {batch:>4}: {rate:>8.0} jobs/s  \
                 ({:.0} jobs/s with the workers' start)",
                rates.with_start
            );
            if at_defaults {
                report(
                    "S4",
                    "apalis, sqlite, default settings",
                    rate,
                    "jobs/s",
                    Goal::None,
                );
            }
        }
    }
}

/// apalis's rate: the workers are started and have run one job (so their start, the lease, the registrations and the
/// pool's connections are behind them, as in a worker that has been up for a while), then the jobs arrive in one
/// insert, and the time runs from that insert's commit until none is left. The baseline's jobs are likewise in
/// their table before its clock starts.
async fn drain(test_db: TestDb, batch: usize, concurrency: usize) -> Rates {
    let ctx = context(&test_db, batch, concurrency).await;
    let started = Instant::now();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let workers = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
        stopped.await.ok();
    }));
    ctx.queue
        .enqueue(job(usize::MAX), None)
        .await
        .expect("enqueues");
    outreach_worker::wait_until_idle(&ctx, LIMIT)
        .await
        .expect("drains");
    let warm = started.elapsed();
    let jobs = (0..JOBS).map(|index| (job(index), format!("bench-{index}")));
    let added = ctx
        .queue
        .enqueue_all(jobs.collect())
        .await
        .expect("enqueues");
    assert_eq!(added, JOBS);
    let arrived = Instant::now();
    outreach_worker::wait_until_idle(&ctx, LIMIT)
        .await
        .expect("drains");
    let drained = arrived.elapsed();
    stop.send(()).ok();
    workers.await.expect("joins").expect("stops");
    ctx.db.close().await;
    test_db.cleanup().await;
    Rates {
        drained: JOBS as f64 / drained.as_secs_f64(),
        with_start: JOBS as f64 / (warm + drained).as_secs_f64(),
    }
}

/// apalis's drain rate, and the same with the workers' start (up to the first job done) counted in.
struct Rates {
    drained: f64,
    with_start: f64,
}

/// The baseline: the same jobs in a table of their own, `concurrency` tasks each claiming `batch` at a time with
/// `FOR UPDATE SKIP LOCKED`, running the same handler on each, and marking the batch done.
async fn drain_raw(test_db: TestDb, batch: usize, concurrency: usize) -> f64 {
    let ctx = context(&test_db, batch, concurrency).await;
    let Db::Postgres(pool) = &ctx.db else {
        unreachable!("the loop is PostgreSQL's")
    };
    sqlx::query(
        "create table bench_raw_jobs (id bigserial primary key, job jsonb not null, \
         status text not null default 'Pending', run_at timestamptz not null default now())",
    )
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("create index on bench_raw_jobs (status, run_at)")
        .execute(pool)
        .await
        .unwrap();
    for index in 0..JOBS {
        sqlx::query("insert into bench_raw_jobs (job) values ($1)")
            .bind(serde_json::to_value(job(index)).unwrap())
            .execute(pool)
            .await
            .unwrap();
    }
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..concurrency {
        let (ctx, pool) = (ctx.clone(), pool.clone());
        tasks.spawn(async move {
            loop {
                let claimed: Vec<(i64, serde_json::Value)> = sqlx::query_as(
                    "update bench_raw_jobs set status = 'Running' where id in (\
                       select id from bench_raw_jobs where status = 'Pending' and run_at <= now() \
                       order by run_at for update skip locked limit $1) \
                     returning id, job",
                )
                .bind(batch as i64)
                .fetch_all(&pool)
                .await
                .unwrap();
                if claimed.is_empty() {
                    return;
                }
                let mut done = Vec::with_capacity(claimed.len());
                for (id, job) in claimed {
                    let job: ExpireSubscriptions = serde_json::from_value(job).unwrap();
                    outreach_worker::handlers::expire_subscriptions(&ctx, &job)
                        .await
                        .unwrap();
                    done.push(id);
                }
                sqlx::query("update bench_raw_jobs set status = 'Done' where id = any($1)")
                    .bind(&done)
                    .execute(&pool)
                    .await
                    .unwrap();
            }
        });
    }
    while let Some(task) = tasks.join_next().await {
        task.unwrap();
    }
    let rate = JOBS as f64 / started.elapsed().as_secs_f64();
    ctx.db.close().await;
    test_db.cleanup().await;
    rate
}

/// A context with a pool as large as a production worker's (not the test default) and the queue settings to time.
async fn context(test_db: &TestDb, batch: usize, concurrency: usize) -> Context {
    let db = Db::connect(&test_db.url, 20).await.expect("connects");
    let mut settings = Settings::default();
    settings.queue.batch_size = batch;
    settings.queue.concurrency = concurrency;
    Context::new(db, settings, Arc::new(SystemClock))
}

fn job(index: usize) -> ExpireSubscriptions {
    ExpireSubscriptions {
        tick: format!("bench-{index}"),
    }
}
