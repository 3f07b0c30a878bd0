//! Tracking throughput with durable recording: the real router serves the open pixel `/t/o/{token}.gif` and the
//! click redirect `/t/c/{token}` (signature check, event handed to the batched writer) and the RFC 8058 one-click
//! unsubscribe `POST /unsubscribe` (signature check, suppression written before the answer) while `wrk` (Debian
//! package wrk) loads each from another process; beside them the same server's `/healthz`, which touches no
//! database, as the ceiling, taken before and after (the ratio is against their mean). Prints requests per second,
//! the ratios and wrk's latency percentiles, then checks every event reached the database. Then each at a fixed
//! 2,000 requests/s (open loop: latency counts from when each request was due, so a stall is not hidden) for its p50
//! and p99, and `/healthz` at the same rate last, to tell a tail of the machine's from one of the endpoint's. Every
//! endpoint is loaded for a few seconds before anything is measured, as on a server that has been
//! running: a fresh database's first thousands of events otherwise land in the first endpoint's figure. SQLite by default; `BENCH_DATABASE_URL` for PostgreSQL. Ends with issue 32.3's goal lines.

use std::process::Command;
use std::sync::Arc;

use outreach_core::platform::clock::SystemClock;
use outreach_core::sending::links::{click_url, open_pixel_url, unsubscribe_url};
use outreach_core::testing::TestDb;
use outreach_core::testing::goals::{Goal, report};
use outreach_core::{Context, Settings};

const SECONDS: u64 = 10;
const WARM_UP_SECONDS: u64 = 3;
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

    let (token, prospect) = ("benchtoken0000000000", "owner@cafe.example");
    let endpoints = [
        (
            "open pixel",
            Method::Get,
            open_pixel_url(&ctx.settings, token),
        ),
        (
            "click redirect",
            Method::Get,
            click_url(&ctx.settings, token, "https://bakery.example/menu"),
        ),
        (
            "one-click unsubscribe",
            Method::OneClick,
            unsubscribe_url(&ctx.settings, prospect),
        ),
    ];
    let healthz = format!("{base}/healthz");
    let mut warm_up_events = 0;
    for (name, method, url) in &endpoints {
        let (_, _, requests) = load(url, *method, WARM_UP_SECONDS).await;
        if *name != "one-click unsubscribe" {
            warm_up_events += requests;
        }
    }
    let before = load(&healthz, Method::Get, SECONDS).await;
    let mut measured = Vec::new();
    for (name, method, url) in &endpoints {
        let full = load(url, *method, SECONDS).await;
        let steady = fixed_rate(url, *method, FIXED_RATE, FIXED_SECONDS).await;
        measured.push((*name, full, steady));
    }
    let after = load(&healthz, Method::Get, SECONDS).await;
    // The same fixed rate on the handler that touches no database: what of a tail is the machine's and the
    // client's rather than the endpoint's.
    let healthz_steady = fixed_rate(&healthz, Method::Get, FIXED_RATE, FIXED_SECONDS).await;
    server.abort();
    recorder.finish().await;
    let stored = test_db.db.tracking().events_of(token).await.unwrap().len();
    let suppressed = test_db
        .db
        .sending()
        .suppressed_among(&[prospect.to_string()])
        .await
        .unwrap()
        .contains(prospect);
    let backend = test_db.db.backend();
    let ceiling = (before.0 + after.0) / 2.0;
    println!("{backend} database, {CONNECTIONS} connections, {SECONDS} s each");
    println!(
        "healthz (no database):  {ceiling:>8.0} requests/s  ({:.0} before, {:.0} after)  {}",
        before.0, after.0, before.1
    );
    println!(
        "{:<22}  at {FIXED_RATE}/s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
        "",
        healthz_steady.p50_ms,
        healthz_steady.p99_ms,
        healthz_steady.max_ms,
        healthz_steady.errors
    );
    report(
        "S3",
        &format!("/healthz p99 at {FIXED_RATE}/s, {backend}"),
        healthz_steady.p99_ms,
        "ms",
        Goal::None,
    );
    let mut recorded = warm_up_events;
    for (name, full, steady) in &measured {
        println!(
            "{name:<22}  {:>8.0} requests/s  ratio {:.2}  {}",
            full.0,
            full.0 / ceiling,
            full.1
        );
        println!(
            "{:<22}  at {FIXED_RATE}/s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
            "", steady.p50_ms, steady.p99_ms, steady.max_ms, steady.errors
        );
        if *name != "one-click unsubscribe" {
            recorded += full.2 + steady.requests;
        }
        let target = |goal| {
            if *name == "open pixel" {
                goal
            } else {
                Goal::None
            }
        };
        report(
            "S3",
            &format!("{name} ÷ /healthz, {backend}"),
            full.0 / ceiling,
            "",
            target(Goal::AtLeast(0.8)),
        );
        report(
            "S3",
            &format!("{name} p99 at {FIXED_RATE}/s, {backend}"),
            steady.p99_ms,
            "ms",
            target(Goal::AtMost(5.0)),
        );
    }
    println!(
        "events stored:          {stored} of {recorded} pixel and click requests; unsubscribed: {suppressed}"
    );
    report(
        "S3",
        &format!("events stored ÷ requests, {backend}"),
        stored as f64 / recorded as f64,
        "",
        Goal::AtLeast(1.0),
    );
    test_db.cleanup().await;
}

/// How a request is made: a plain GET, or the POST a mail provider sends for a one-click unsubscribe.
#[derive(Clone, Copy)]
enum Method {
    Get,
    OneClick,
}

/// The form body of RFC 8058.
const ONE_CLICK_BODY: &str = "List-Unsubscribe=One-Click";

/// `seconds` of wrk: its requests/s, its latency distribution line, and the number of requests.
async fn load(url: &str, method: Method, seconds: u64) -> (f64, String, u64) {
    let url = url.to_string();
    let output = tokio::task::spawn_blocking(move || {
        let mut wrk = Command::new("wrk");
        wrk.args([
            "-t",
            "2",
            "-c",
            CONNECTIONS,
            "-d",
            &format!("{seconds}s"),
            "--latency",
        ]);
        // wrk posts through a Lua script; it is written beside the run and removed when the script goes.
        let script = tempfile::NamedTempFile::new().unwrap();
        if let Method::OneClick = method {
            std::fs::write(
                script.path(),
                format!(
                    "wrk.method = \"POST\"\nwrk.body = \"{ONE_CLICK_BODY}\"\n\
                     wrk.headers[\"Content-Type\"] = \"application/x-www-form-urlencoded\"\n"
                ),
            )
            .unwrap();
            wrk.arg("-s").arg(script.path());
        }
        wrk.arg(&url)
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
/// latency runs from when it was due to its answer. The client is apart from the server, as one in another process
/// would be: its requests run on a runtime of their own (on the server's, they queued behind the server's tasks on
/// the same two workers), and a thread of its own sends each when due by the operating system's high-resolution
/// sleep (tokio's timer counts whole milliseconds, so a request due mid-millisecond went out up to 1 ms late, and
/// that wait counted as the endpoint's).
async fn fixed_rate(url: &str, method: Method, rate: u64, seconds: u64) -> Steady {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || fixed_rate_client(&url, method, rate, seconds))
        .await
        .unwrap()
}

fn fixed_rate_client(url: &str, method: Method, rate: u64, seconds: u64) -> Steady {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let period = std::time::Duration::from_nanos(1_000_000_000 / rate);
    let start = std::time::Instant::now();
    let mut requests = Vec::with_capacity((rate * seconds) as usize);
    for index in 0..rate * seconds {
        let due = start + period * index as u32;
        if let Some(wait) = due.checked_duration_since(std::time::Instant::now()) {
            std::thread::sleep(wait);
        }
        let request = match method {
            Method::Get => client.get(url),
            Method::OneClick => client
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(ONE_CLICK_BODY),
        };
        requests.push(runtime.spawn(async move {
            let ok = request.send().await.is_ok_and(|response| {
                response.status().is_success() || response.status().is_redirection()
            });
            (due.elapsed(), ok)
        }));
    }
    let (mut latencies, mut errors) = (Vec::with_capacity(requests.len()), 0);
    runtime.block_on(async {
        for request in requests {
            let (latency, ok) = request.await.unwrap();
            latencies.push(latency.as_secs_f64() * 1000.0);
            errors += u64::from(!ok);
        }
    });
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
