//! Tracking throughput with durable recording: the real router serves the open pixel `/t/o/{token}.gif` and the
//! click redirect `/t/c/{token}` (signature check, event handed to the batched writer) and the RFC 8058 one-click
//! unsubscribe `POST /unsubscribe` (signature check, suppression written before the answer) while `wrk` (Debian
//! package wrk) loads each from another process; beside them the same server's `/healthz`, which touches no
//! database, as the ceiling, in alternate windows with each endpoint (the ratio is against the windows beside it, so
//! that the machine's speed drifting over a run falls on both alike). Prints requests per second, the ratios and
//! wrk's latency percentiles, then checks every event reached the database. Then each at a fixed
//! 2,000 requests/s (open loop: latency counts from when each request was due, so a stall is not hidden) for its p50
//! and p99, and `/healthz` at the same rate last, to tell a tail of the machine's from one of the endpoint's. Every
//! endpoint is loaded for a few seconds before anything is measured, as on a server that has been
//! running: a fresh database's first thousands of events otherwise land in the first endpoint's figure. Those loads
//! all open one test message, whose events are a machine's (wrk sends no User-Agent), so they measure the durable
//! row alone. Last, the pixel as mail brings it: `BENCH_TRACKED_MESSAGES` (default 200,000) sent messages, each
//! request a person's open of one of them (wrk picks at random through a script; `/healthz` is asked for through
//! the same script for that ratio), so a message's first open also moves the message, its contact, the day's
//! counters and its follow-up; then every event and every first open is checked to be stored. SQLite by default;
//! `BENCH_DATABASE_URL` for PostgreSQL. Ends with issue 32.3's goal lines.

use std::process::Command;
use std::sync::Arc;

use outreach_core::platform::clock::SystemClock;
use outreach_core::sending::links::{click_url, open_pixel_url, unsubscribe_url};
use outreach_core::testing::goals::{Goal, env_setting, report};
use outreach_core::testing::{TestDb, seed_follow_ups};
use outreach_core::{Context, Settings, on_db};

const SECONDS: u64 = 10;
/// The alternate windows of an endpoint and `/healthz`: this many of each, `SECONDS` in all for each.
const ROUNDS: u64 = 5;
const WARM_UP_SECONDS: u64 = 3;
const CONNECTIONS: &str = "64";
const FIXED_RATE: u64 = 2_000;
const FIXED_SECONDS: u64 = 10;
/// The events of the spread pixel's messages.
const SPREAD_EVENTS: &str = "select count(*) from email_events where message in (select id from sent_emails where campaign_id = $1)";
/// The fixed-rate client's stride through many paths: a prime, so it visits each before any twice.
const SCATTER: usize = 1_000_003;

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
            Target::Get(open_pixel_url(&ctx.settings, token)),
        ),
        (
            "click redirect",
            Target::Get(click_url(
                &ctx.settings,
                token,
                "https://bakery.example/menu",
            )),
        ),
        (
            "one-click unsubscribe",
            Target::OneClick(unsubscribe_url(&ctx.settings, prospect, "Ada Baker")),
        ),
    ];
    let healthz = Target::Get(format!("{base}/healthz"));
    let mut warm_up_events = 0;
    for (name, target) in &endpoints {
        let (_, _, requests) = load(target, WARM_UP_SECONDS).await;
        if *name != "one-click unsubscribe" {
            warm_up_events += requests;
        }
    }
    let mut measured = Vec::new();
    for (name, target) in &endpoints {
        let full = alternate(target, &healthz).await;
        let steady = fixed_rate(target, FIXED_RATE, FIXED_SECONDS).await;
        measured.push((*name, full, steady));
    }
    // The same fixed rate on the handler that touches no database: what of a tail is the machine's and the
    // client's rather than the endpoint's.
    let healthz_steady = fixed_rate(&healthz, FIXED_RATE, FIXED_SECONDS).await;
    // Sent messages for the spread pixel (three days ago, none opened yet, a follow-up one day after an open),
    // written after the measurements above so that their writing and its checkpoints stay out of them.
    let messages: usize = env_setting("BENCH_TRACKED_MESSAGES").unwrap_or(200_000);
    let seeded = seed_follow_ups(
        &test_db.db,
        "tracked@bakery.example",
        i64::MAX,
        messages,
        0,
        None,
    )
    .await;
    let tracked: Vec<String> = on_db!(&test_db.db, pool => sqlx::query_scalar(
        "select token from sent_emails where campaign_id = $1")
        .bind(seeded.campaign_id).fetch_all(pool).await)
    .unwrap();
    // The pixel as mail brings it: opens spread over many sent messages, a person's, so a message's first open
    // moves it to opened (its contact, the day's counters and its follow-up's due time with it). Against
    // `/healthz` asked for through the same script, since wrk's choice of a path costs it CPU of its own.
    let spread = Target::Spread {
        base: base.clone(),
        paths: Arc::new(
            tracked
                .iter()
                .map(|token| open_pixel_url(&ctx.settings, token)[base.len()..].to_string())
                .collect(),
        ),
    };
    let spread_healthz = Target::Spread {
        base: base.clone(),
        paths: Arc::new(vec!["/healthz".to_string()]),
    };
    let campaign_count = |sql: &'static str| {
        let db = test_db.db.clone();
        async move {
            on_db!(&db, pool => sqlx::query_scalar::<_, i64>(sql).bind(seeded.campaign_id).fetch_one(pool).await)
                .unwrap()
        }
    };
    // The fixed rate first, on messages not opened yet; after the full load, `/healthz` waits until the writer has
    // caught up with it (a backlog of first opens would take the cores from it).
    let spread_before = load(&spread_healthz, SECONDS).await;
    let spread_steady = fixed_rate(&spread, FIXED_RATE, FIXED_SECONDS).await;
    let spread_full = load(&spread, SECONDS).await;
    let written = spread_steady.requests + spread_full.2;
    let drain_started = std::time::Instant::now();
    let drain_deadline = drain_started + std::time::Duration::from_secs(300);
    while (campaign_count(SPREAD_EVENTS).await as u64) < written
        && std::time::Instant::now() < drain_deadline
    {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let drained_in = drain_started.elapsed().as_secs_f64();
    let spread_after = load(&spread_healthz, SECONDS).await;
    server.abort();
    recorder.finish().await;
    // The first loads' token names no message (they measure the durable row alone), so their events carry no
    // message's id: they are counted by token.
    let stored: i64 = on_db!(&test_db.db, pool => sqlx::query_scalar(
        "select count(*) from email_events where token = $1")
        .bind(token).fetch_one(pool).await)
    .unwrap();
    let suppressed = test_db
        .db
        .sending()
        .suppressed_among(&[prospect.to_string()])
        .await
        .unwrap()
        .contains(prospect);
    let spread_stored = campaign_count(SPREAD_EVENTS).await;
    let opened = campaign_count(
        "select count(*) from sent_emails where campaign_id = $1 and opened_at is not null",
    )
    .await;
    let opened_by_events = campaign_count(
        "select count(distinct message) from email_events where kind = 'open' and not is_machine
             and message in (select id from sent_emails where campaign_id = $1)",
    )
    .await;
    let backend = test_db.db.backend();
    println!(
        "{backend} database, {CONNECTIONS} connections, {SECONDS} s each in {ROUNDS} windows alternating with \
         /healthz's"
    );
    let ceilings: Vec<String> = measured
        .iter()
        .map(|(_, full, _)| format!("{:.0}", full.healthz))
        .collect();
    println!(
        "healthz (no database):  {} requests/s beside each endpoint below",
        ceilings.join(", ")
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
            full.rate,
            full.rate / full.healthz,
            full.latency
        );
        println!(
            "{:<22}  at {FIXED_RATE}/s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
            "", steady.p50_ms, steady.p99_ms, steady.max_ms, steady.errors
        );
        if *name != "one-click unsubscribe" {
            recorded += full.requests + steady.requests;
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
            full.rate / full.healthz,
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
    let spread_ceiling = (spread_before.0 + spread_after.0) / 2.0;
    let spread_requests = spread_full.2 + spread_steady.requests;
    println!(
        "open pixel, {messages} messages (wrk's script): {:.0} requests/s against /healthz through it {spread_ceiling:.0} \
         ({:.0} before, {:.0} after), ratio {:.2}  {}",
        spread_full.0,
        spread_before.0,
        spread_after.0,
        spread_full.0 / spread_ceiling,
        spread_full.1
    );
    println!(
        "{:<22}  at {FIXED_RATE}/s (first opens): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {} errors",
        "", spread_steady.p50_ms, spread_steady.p99_ms, spread_steady.max_ms, spread_steady.errors
    );
    println!(
        "{:<22}  events stored {spread_stored} of {spread_requests} requests; messages opened {opened} of \
         {opened_by_events} with a person's open; the last written {drained_in:.1} s after the load",
        ""
    );
    report(
        "S3",
        &format!("events stored ÷ requests, {backend}"),
        stored as f64 / recorded as f64,
        "",
        Goal::AtLeast(1.0),
    );
    let spread_name = format!("open pixel over {messages} messages");
    let spread_figures = [
        (
            " ÷ /healthz",
            spread_full.0 / spread_ceiling,
            "",
            Goal::AtLeast(0.8),
        ),
        (
            &format!(" p99 at {FIXED_RATE}/s") as &str,
            spread_steady.p99_ms,
            "ms",
            Goal::AtMost(5.0),
        ),
        (
            ": events stored ÷ requests",
            spread_stored as f64 / spread_requests as f64,
            "",
            Goal::AtLeast(1.0),
        ),
        (
            ": messages opened ÷ messages a person opened",
            opened as f64 / opened_by_events.max(1) as f64,
            "",
            Goal::AtLeast(1.0),
        ),
    ];
    for (figure, value, unit, goal) in spread_figures {
        report(
            "S3",
            &format!("{spread_name}{figure}, {backend}"),
            value,
            unit,
            goal,
        );
    }
    test_db.cleanup().await;
}

/// What a load asks for.
#[derive(Clone)]
enum Target {
    /// A plain GET of one address.
    Get(String),
    /// The POST a mail provider sends for a one-click unsubscribe of one address.
    OneClick(String),
    /// A GET of one of many paths of `base`, as a mail client asks (with its User-Agent): wrk picks each request's
    /// at random, the fixed-rate client goes through them in a scattered order.
    Spread {
        base: String,
        paths: Arc<Vec<String>>,
    },
}

/// The User-Agent of the spread loads: a mail client's, so their opens count as a person's (and move their
/// messages' first open), where wrk's requests without one count as a machine's.
const MAIL_CLIENT: &str =
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.0";

/// The form body of RFC 8058.
const ONE_CLICK_BODY: &str = "List-Unsubscribe=One-Click";

/// An endpoint loaded in `ROUNDS` windows alternating with `/healthz`'s.
struct Alternated {
    /// The endpoint's requests/s and `/healthz`'s, each the mean over its windows.
    rate: f64,
    healthz: f64,
    /// wrk's latency distribution line of the endpoint's last window.
    latency: String,
    /// The endpoint's requests in all.
    requests: u64,
}

/// `target` and `healthz` in turn, `ROUNDS` windows each: the order switches every round (endpoint first, then
/// `/healthz` first), so that a machine getting faster or slower through the run (ten-second loads of `/healthz`
/// a minute apart differed by up to a fifth on this machine) changes both figures of the ratio alike.
async fn alternate(target: &Target, healthz: &Target) -> Alternated {
    let window = SECONDS / ROUNDS;
    let (mut rates, mut healthz_rates) = (0.0, 0.0);
    let (mut latency, mut requests) = (String::new(), 0);
    for round in 0..ROUNDS {
        if round % 2 == 1 {
            healthz_rates += load(healthz, window).await.0;
        }
        let (rate, line, count) = load(target, window).await;
        (rates, latency, requests) = (rates + rate, line, requests + count);
        if round % 2 == 0 {
            healthz_rates += load(healthz, window).await.0;
        }
    }
    Alternated {
        rate: rates / ROUNDS as f64,
        healthz: healthz_rates / ROUNDS as f64,
        latency,
        requests,
    }
}

/// `seconds` of wrk: its requests/s, its latency distribution line, and the number of requests.
async fn load(target: &Target, seconds: u64) -> (f64, String, u64) {
    let target = target.clone();
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
        // wrk posts, and picks among many paths, through a Lua script; it and the paths' file are written beside
        // the run and removed when they go.
        let script = tempfile::NamedTempFile::new().unwrap();
        let paths = tempfile::NamedTempFile::new().unwrap();
        let url = match target {
            Target::Get(url) => url,
            Target::OneClick(url) => {
                std::fs::write(
                    script.path(),
                    format!(
                        "wrk.method = \"POST\"\nwrk.body = \"{ONE_CLICK_BODY}\"\n\
                         wrk.headers[\"Content-Type\"] = \"application/x-www-form-urlencoded\"\n"
                    ),
                )
                .unwrap();
                wrk.arg("-s").arg(script.path());
                url
            }
            Target::Spread { base, paths: list } => {
                std::fs::write(paths.path(), list.join("\n")).unwrap();
                // Each thread reads the paths and draws from a sequence of its own.
                std::fs::write(
                    script.path(),
                    format!(
                        "local threads = 0\n\
                         function setup(thread) threads = threads + 1; thread:set(\"seed\", threads) end\n\
                         local paths = {{}}\n\
                         function init(args)\n\
                           math.randomseed(seed)\n\
                           for line in io.lines(\"{}\") do paths[#paths + 1] = line end\n\
                         end\n\
                         wrk.headers[\"User-Agent\"] = \"{MAIL_CLIENT}\"\n\
                         function request() return wrk.format(nil, paths[math.random(#paths)]) end\n",
                        paths.path().display()
                    ),
                )
                .unwrap();
                wrk.arg("-s").arg(script.path());
                base
            }
        };
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
async fn fixed_rate(target: &Target, rate: u64, seconds: u64) -> Steady {
    let target = target.clone();
    tokio::task::spawn_blocking(move || fixed_rate_client(&target, rate, seconds))
        .await
        .unwrap()
}

fn fixed_rate_client(target: &Target, rate: u64, seconds: u64) -> Steady {
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
        let request = match target {
            Target::Get(url) => client.get(url),
            Target::OneClick(url) => client
                .post(url)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(ONE_CLICK_BODY),
            // A stride prime to the count visits each path once before any twice.
            Target::Spread { base, paths } => {
                let path = &paths[(index as usize).wrapping_mul(SCATTER) % paths.len()];
                client
                    .get(format!("{base}{path}"))
                    .header("user-agent", MAIL_CLIENT)
            }
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
