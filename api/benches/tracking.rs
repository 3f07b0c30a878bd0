//! Open-pixel throughput with durable recording: the real router serves `/t/o/{token}.gif` (signature check, event
//! handed to the batched writer) while `wrk` (Debian package wrk) loads it from another process; beside it the same
//! server's `/healthz`, which touches no database, as the ceiling. Prints requests per second, the ratio, and wrk's
//! latency percentiles, then checks every event reached the database. Then the pixel at a fixed 2,000 requests/s
//! (open loop: latency counts from when each request was due, so a stall is not hidden) for its p50 and p99.
//! SQLite by default; `BENCH_DATABASE_URL` for PostgreSQL.

use std::process::Command;
use std::sync::Arc;

use outreach_core::platform::clock::SystemClock;
use outreach_core::sending::links::open_pixel_url;
use outreach_core::testing::TestDb;
use outreach_core::{Context, Settings};

const SECONDS: &str = "10";
const CONNECTIONS: &str = "64";
const FIXED_RATE: u64 = 2_000;
const FIXED_SECONDS: u64 = 10;

#[tokio::main]
async fn main() {
    let test_db = match std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
    {
        Some(url) => TestDb::postgres(&url).await,
        None => TestDb::sqlite().await,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut settings = Settings::default();
    settings.security.secret_key =
        outreach_core::platform::config::Secret::new("bench-key-".repeat(8));
    settings.http.public_url = base.clone();
    let ctx = Context::new(test_db.db.clone(), settings, Arc::new(SystemClock));
    let state = outreach_api::AppState::new(ctx.clone()).unwrap();
    let recorder = state.recorder.clone();
    let app = outreach_api::app(state);
    let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let pixel = open_pixel_url(&ctx.settings, "benchtoken0000000000");
    let ceiling = load(&format!("{base}/healthz")).await;
    let tracked = load(&pixel).await;
    let steady = fixed_rate(&pixel, FIXED_RATE, FIXED_SECONDS).await;
    server.abort();
    recorder.finish().await;
    let stored = test_db
        .db
        .tracking()
        .events_of("benchtoken0000000000")
        .await
        .unwrap()
        .len();
    println!(
        "{} database, {CONNECTIONS} connections, {SECONDS} s each",
        test_db.db.backend()
    );
    println!(
        "healthz (no database): {:>8.0} requests/s  {}",
        ceiling.0, ceiling.1
    );
    println!(
        "open pixel (recorded): {:>8.0} requests/s  {}",
        tracked.0, tracked.1
    );
    println!("ratio:                 {:.2}", tracked.0 / ceiling.0);
    println!(
        "open pixel at {FIXED_RATE}/s:  p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
        steady.p50_ms, steady.p99_ms, steady.max_ms, steady.errors
    );
    println!(
        "events stored:         {stored} of {} requests",
        tracked.2 + steady.requests
    );
    test_db.cleanup().await;
}

/// wrk's requests/s, its latency distribution line, and the number of requests.
async fn load(url: &str) -> (f64, String, u64) {
    let url = url.to_string();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("wrk")
            .args([
                "-t",
                "2",
                "-c",
                CONNECTIONS,
                "-d",
                &format!("{SECONDS}s"),
                "--latency",
                &url,
            ])
            .output()
            .expect("wrk runs (Debian package wrk)")
    })
    .await
    .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    let rate = text
        .lines()
        .find(|line| line.starts_with("Requests/sec:"))
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|value| value.parse().ok())
        .unwrap_or(0.0);
    let requests = text
        .lines()
        .find(|line| line.contains("requests in"))
        .and_then(|line| line.split_whitespace().next())
        .and_then(|value| value.parse().ok())
        .unwrap_or(0);
    let percentiles: Vec<String> = text
        .lines()
        .filter(|line| {
            ["50%", "90%", "99%"]
                .iter()
                .any(|p| line.trim_start().starts_with(p))
        })
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    (
        rate,
        format!("latency {}", percentiles.join(", ")),
        requests,
    )
}

/// Latencies of an open-loop run.
struct Steady {
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    requests: u64,
    errors: u64,
}

/// `rate` requests a second for `seconds`, each sent when due whatever the earlier ones are doing; a request's
/// latency runs from when it was due to its answer.
async fn fixed_rate(url: &str, rate: u64, seconds: u64) -> Steady {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .build()
        .unwrap();
    let period = std::time::Duration::from_nanos(1_000_000_000 / rate);
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
    let start = tokio::time::Instant::now();
    let mut requests = tokio::task::JoinSet::new();
    for index in 0..rate * seconds {
        ticks.tick().await;
        let due = start + period * index as u32;
        let (client, url) = (client.clone(), url.to_string());
        requests.spawn(async move {
            let ok = client
                .get(&url)
                .send()
                .await
                .is_ok_and(|response| response.status().is_success());
            (due.elapsed(), ok)
        });
    }
    let mut latencies = Vec::new();
    let mut errors = 0;
    while let Some(done) = requests.join_next().await {
        let (latency, ok) = done.unwrap();
        latencies.push(latency.as_secs_f64() * 1000.0);
        errors += u64::from(!ok);
    }
    latencies.sort_by(f64::total_cmp);
    let at = |fraction: f64| latencies[((latencies.len() - 1) as f64 * fraction) as usize];
    Steady {
        p50_ms: at(0.50),
        p99_ms: at(0.99),
        max_ms: at(1.0),
        requests: latencies.len() as u64,
        errors,
    }
}
