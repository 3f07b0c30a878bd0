//! Enrichment throughput and recall: a fixture web of `BENCH_SITES` websites (default 500) on loopback, each on its
//! own address (127.1.x.y) with a robots.txt, a home page linking to a contact page, injected latency on every response
//! (`BENCH_LATENCY_MS`, default 50) and one planted address written in one of the styles sites use (mailto, plain
//! text, "[at]"/"[dot]" obfuscation, HTML entities, JSON-LD), next to decoys the ranking must put aside (image
//! names, placeholders). Every site is a business whose `EnrichBusiness` job runs through the real queue and worker
//! with politeness on: robots.txt fetched and obeyed, one request at a time per site. MX verdicts come from a fake
//! DNS server on loopback. Prints sites per second and the recall of the planted addresses. `make bench` runs it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use outreach_core::discovery::businesses::Candidate;
use outreach_core::platform::clock::SystemClock;
use outreach_core::testing::goals::env_setting;
use outreach_core::testing::{DnsAnswer, TestDb, fake_dns};
use outreach_core::{Context, Db, Settings};

const STYLES: usize = 6;

#[tokio::main]
async fn main() {
    let sites: usize = env_setting("BENCH_SITES").unwrap_or(500);
    let latency = Duration::from_millis(env_setting("BENCH_LATENCY_MS").unwrap_or(50));
    let mut hosts = Vec::new();
    for index in 0..sites {
        hosts.push(serve_site(index, latency).await);
    }
    let zones = (0..sites)
        .map(|index| {
            let domain: &'static str = Box::leak(planted_domain(index).into_boxed_str());
            (domain, DnsAnswer::Exchanges(vec!["mx.mail.example."]))
        })
        .collect();
    let dns = fake_dns(zones).await;
    println!(
        "{sites} sites, {} ms latency per response",
        latency.as_millis()
    );
    for concurrency in [8, 32, 64] {
        let test_db = TestDb::sqlite().await;
        let (rate, recall, precision) = run(&test_db.url, &hosts, dns, concurrency).await;
        println!(
            "crawler.concurrency {concurrency:>3}: {rate:>6.1} sites/s, recall {recall:.3}, precision {precision:.3}"
        );
        test_db.cleanup().await;
    }
}

fn planted_domain(index: usize) -> String {
    format!("site{index}.example")
}

/// (sites/s, recall: share of sites whose planted address became the business's address, precision: share of
/// the addresses kept that are the planted ones)
async fn run(
    url: &str,
    hosts: &[String],
    dns: std::net::SocketAddr,
    concurrency: usize,
) -> (f64, f64, f64) {
    let db = Db::connect(url, 20).await.expect("connects");
    let mut settings = Settings::default();
    settings.crawler.concurrency = concurrency;
    settings.crawler.allow_hosts = vec!["127.1.0.0/16".into()];
    settings.crawler.restrict_to_allow_hosts = true;
    settings.crawler.dns_servers = vec![dns.to_string()];
    let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));
    let user = db
        .accounts()
        .upsert_user_on_sign_in("bench@outreach.example", None, None, 0)
        .await
        .expect("a user");
    let mut ids = Vec::new();
    for (index, host) in hosts.iter().enumerate() {
        let candidate = Candidate {
            name: format!("Site {index}"),
            website: Some(format!("http://{host}/")),
            provider: "import".into(),
            query: "bench".into(),
            ..Candidate::default()
        };
        let (id, _) = db
            .discovery()
            .add_business(user.id, &candidate, 0)
            .await
            .expect("adds");
        ids.push((index, id));
    }
    let started = Instant::now();
    for (_, id) in &ids {
        ctx.request_enrichment(*id, &format!("enrich:{id}"))
            .await
            .expect("enqueues");
    }
    outreach_worker::run_until_idle(ctx, Duration::from_secs(900))
        .await
        .expect("drains");
    let rate = hosts.len() as f64 / started.elapsed().as_secs_f64();
    let businesses = db
        .discovery()
        .list_businesses(user.id, 10_000)
        .await
        .expect("lists");
    let (mut with_email, mut planted) = (0, 0);
    for (index, id) in ids {
        let email = businesses
            .iter()
            .find(|business| business.id == id)
            .and_then(|business| business.email.clone());
        with_email += usize::from(email.is_some());
        planted += usize::from(email == Some(planted_address(index)));
    }
    db.close().await;
    let recall = planted as f64 / hosts.len() as f64;
    let precision = planted as f64 / with_email.max(1) as f64;
    (rate, recall, precision)
}

fn planted_address(index: usize) -> String {
    format!("contact{index}@{}", planted_domain(index))
}

#[derive(Clone)]
struct Site {
    index: usize,
    latency: Duration,
}

async fn serve_site(index: usize, latency: Duration) -> String {
    let site = Site { index, latency };
    let app = Router::new()
        .route("/robots.txt", get(robots))
        .route("/", get(home))
        .route("/contact", get(contact))
        .route("/about", get(about))
        .fallback(get(missing))
        .with_state(site);
    // Each site on its own loopback address: a different website domain, so a different business.
    let ip = format!("127.1.{}.{}", index / 250, index % 250 + 1);
    let listener = tokio::net::TcpListener::bind(format!("{ip}:0"))
        .await
        .expect("a loopback port");
    let host = format!("{ip}:{}", listener.local_addr().expect("bound").port());
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serves") });
    host
}

async fn robots(State(site): State<Site>) -> Response {
    tokio::time::sleep(site.latency).await;
    (
        [(header::CONTENT_TYPE, "text/plain")],
        "User-agent: *\nDisallow: /private\n",
    )
        .into_response()
}

async fn home(State(site): State<Site>) -> Html<String> {
    tokio::time::sleep(site.latency).await;
    Html(format!(
        r#"<html><head><title>Site {0}</title></head><body><img src="/img/logo@2x.png">
        <nav><a href="/contact">Contact us</a> <a href="/private/admin">Admin</a></nav>
        <p>Welcome to site {0}. Placeholder: you@example.com</p></body></html>"#,
        site.index
    ))
}

async fn contact(State(site): State<Site>) -> Html<String> {
    tokio::time::sleep(site.latency).await;
    let (local, domain) = (format!("contact{}", site.index), planted_domain(site.index));
    let planted = match site.index % STYLES {
        0 => format!(r#"<a href="mailto:{local}@{domain}">Email us</a>"#),
        1 => format!("<p>Write to {local}@{domain} any time.</p>"),
        2 => format!(
            "<p>Email: {local} [at] {} [dot] example</p>",
            domain.trim_end_matches(".example")
        ),
        3 => format!(
            "<p>{}</p>",
            format!("{local}@{domain}")
                .chars()
                .map(|c| format!("&#{};", c as u32))
                .collect::<String>()
        ),
        4 => format!(
            r#"<script type="application/ld+json">{{"@context":"https://schema.org","@type":"LocalBusiness","email":"{local}@{domain}"}}</script>"#
        ),
        _ => format!("<p>Contact: {local} (at) {domain}</p>"),
    };
    Html(format!(
        "<html><body><h1>Contact</h1>{planted}<p>Tracking: 0123456789abcdef0123456789abcdef@sentry.example</p></body></html>"
    ))
}

async fn about(State(site): State<Site>) -> Html<&'static str> {
    tokio::time::sleep(site.latency).await;
    Html("<html><body><h1>About</h1><p>A family business.</p></body></html>")
}

async fn missing(State(site): State<Site>) -> Response {
    tokio::time::sleep(site.latency).await;
    (axum::http::StatusCode::NOT_FOUND, "not found").into_response()
}
