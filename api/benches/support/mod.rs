//! What the API's benchmarks share: a PostgreSQL database with a signed-in premium user, the real router serving
//! it, timing a request, and reading one number from the database.

use std::sync::Arc;
use std::time::{Duration, Instant};

use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::db::Db;
use outreach_core::testing::TestDb;
use outreach_core::{Context, Settings};

/// The session cookie's value of the benchmark's user.
pub const SESSION: &str = "bench-session-token";

/// A fresh PostgreSQL database (`BENCH_DATABASE_URL`, required) with a premium user signed in as `SESSION`.
pub async fn signed_in_database() -> (TestDb, outreach_core::accounts::User) {
    let url = std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
        .expect("BENCH_DATABASE_URL: the benchmark runs on PostgreSQL");
    let test_db = TestDb::postgres(&url).await;
    let now = SystemClock.now_ms();
    let user = premium_user(&test_db.db, "bench@bakery.example", now).await;
    test_db
        .db
        .accounts()
        .insert_session(
            &outreach_core::platform::security::hash_token(SESSION),
            user.id,
            now,
            now + 86_400_000,
        )
        .await
        .unwrap();
    (test_db, user)
}

/// A premium user with room for every message a benchmark seeds.
pub async fn premium_user(db: &Db, email: &str, now: i64) -> outreach_core::accounts::User {
    db.accounts()
        .set_subscription(
            email,
            &outreach_core::accounts::Grant::Premium {
                email_limit: 10_000_000,
            }
            .subscription(now, &Default::default()),
            now,
        )
        .await
        .unwrap()
}

/// The real router over the database on a loopback port: its base URL, and the server's task to abort at the end.
pub async fn serve(test_db: &TestDb) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut settings = Settings::default();
    settings.security.secret_key =
        outreach_core::platform::config::Secret::new("bench-key-".repeat(8));
    settings.http.public_url = base.clone();
    let ctx = Context::new(test_db.db.clone(), settings, Arc::new(SystemClock));
    let app = outreach_api::app(outreach_api::AppState::new(ctx).unwrap());
    let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, server)
}

/// p50 and p95 in milliseconds of `rounds` sequential runs, after two warm-up runs.
pub async fn timings<F, Fut>(rounds: usize, mut run: F) -> (f64, f64)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    for _ in 0..2 {
        run().await;
    }
    let mut times: Vec<Duration> = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let started = Instant::now();
        run().await;
        times.push(started.elapsed());
    }
    times.sort();
    let at = |share: f64| {
        let index = ((times.len() as f64 * share).ceil() as usize).clamp(1, times.len()) - 1;
        times[index].as_secs_f64() * 1000.0
    };
    (at(0.50), at(0.95))
}

pub async fn scalar(pool: &sqlx::PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}
