//! Queue drain rate: enqueue N jobs, then time the workers until the queue is empty, for several fetch batch
//! sizes. Runs on PostgreSQL (`BENCH_DATABASE_URL`, e.g. postgres://postgres@127.0.0.1:5432/postgres) and on
//! SQLite. `make bench` runs it; each size gets a fresh database.

use std::sync::Arc;
use std::time::{Duration, Instant};

use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::ExpireSubscriptions;
use outreach_core::testing::TestDb;
use outreach_core::{Context, Db, Settings};

const JOBS: usize = 5_000;
const BATCH_SIZES: &[usize] = &[10, 50, 200, 500];
const CONCURRENCY: &[usize] = &[8, 32];

#[tokio::main]
async fn main() {
    let postgres = std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty());
    println!("{JOBS} ExpireSubscriptions jobs per run");
    for &concurrency in CONCURRENCY {
        for &batch in BATCH_SIZES {
            if let Some(url) = &postgres {
                let rate = drain(TestDb::postgres(url).await, batch, concurrency).await;
                println!(
                    "postgres  concurrency {concurrency:>3}  batch {batch:>4}: {rate:>8.0} jobs/s"
                );
            }
            let rate = drain(TestDb::sqlite().await, batch, concurrency).await;
            println!(
                "sqlite    concurrency {concurrency:>3}  batch {batch:>4}: {rate:>8.0} jobs/s"
            );
        }
    }
}

async fn drain(test_db: TestDb, batch: usize, concurrency: usize) -> f64 {
    // A pool as large as a production worker's, not the test default.
    let db = Db::connect(&test_db.url, 20).await.expect("connects");
    let mut settings = Settings::default();
    settings.queue.batch_size = batch;
    settings.queue.concurrency = concurrency;
    let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));
    for index in 0..JOBS {
        ctx.queue
            .enqueue(
                ExpireSubscriptions {
                    tick: format!("bench-{index}"),
                },
                None,
            )
            .await
            .expect("enqueues");
    }
    let started = Instant::now();
    outreach_worker::run_until_idle(ctx, Duration::from_secs(600))
        .await
        .expect("drains");
    let rate = JOBS as f64 / started.elapsed().as_secs_f64();
    db.close().await;
    test_db.cleanup().await;
    rate
}
