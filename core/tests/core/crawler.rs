//! The crawler against fixture sites this test serves on loopback (allowed through `allow_hosts`, as the issue
//! asks): contact subpages, obfuscated addresses, JSON-LD, robots.txt, a redirect to a private address (refused
//! without connecting), an oversized page and a slow host.

use std::time::Duration;

use axum::Router;
use axum::response::{Html, Redirect};
use axum::routing::get;
use outreach_core::discovery::crawler::{CrawlError, Crawler};
use outreach_core::platform::config::CrawlerSettings;

async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("127.0.0.1:{}", address.port())
}

fn crawler(allow: &str) -> Crawler {
    Crawler::new(CrawlerSettings {
        allow_hosts: vec![allow.to_string()],
        page_timeout_seconds: 1,
        max_page_bytes: 64 * 1024,
        ..CrawlerSettings::default()
    })
}

#[tokio::test]
async fn finds_addresses_on_contact_pages_and_respects_robots() {
    let site = Router::new()
        .route("/", get(|| async {
            Html(r#"<a href="/yhteystiedot">Contact</a> <a href="/private/team">Team</a> <a href="https://www.instagram.com/nordicbakery/">ig</a>
                <script type="application/ld+json">{"@type":"Bakery","email":"orders@bakery.fi"}</script>"#)
        }))
        .route("/yhteystiedot", get(|| async { Html("<p>Write to hello [at] bakery [dot] fi or call us.</p>") }))
        .route("/private/team", get(|| async { Html("<p>secret@bakery.fi</p>") }))
        .route("/robots.txt", get(|| async { "User-agent: *\nDisallow: /private\n" }));
    let host = serve(site).await;
    let result = crawler(&host)
        .crawl(&format!("http://{host}/"))
        .await
        .unwrap();
    let addresses: Vec<&str> = result
        .emails
        .iter()
        .map(|email| email.address.as_str())
        .collect();
    assert!(
        addresses.contains(&"orders@bakery.fi") && addresses.contains(&"hello@bakery.fi"),
        "{addresses:?}"
    );
    assert!(
        !addresses.contains(&"secret@bakery.fi"),
        "robots.txt disallows /private"
    );
    let hello = result
        .emails
        .iter()
        .find(|email| email.address == "hello@bakery.fi")
        .unwrap();
    assert!(hello.page.ends_with("/yhteystiedot") && hello.how == "text");
    assert_eq!(result.social[0].handle, "nordicbakery");
    assert!(result.pages.len() <= 5);
}

#[tokio::test]
async fn loopback_is_refused_unless_allowed_and_private_redirects_never_connect() {
    let site = Router::new()
        .route("/", get(|| async { Html("<p>hi@site.fi</p>") }))
        .route(
            "/moved",
            get(|| async { Redirect::temporary("http://10.255.255.1/internal") }),
        )
        .route(
            "/metadata",
            get(|| async { Redirect::temporary("http://169.254.169.254/latest/meta-data/") }),
        );
    let host = serve(site).await;
    let unallowed = Crawler::new(CrawlerSettings::default());
    assert!(matches!(
        unallowed.crawl(&format!("http://{host}/")).await,
        Err(CrawlError::Blocked(_))
    ));
    let allowed = crawler(&host);
    for path in ["moved", "metadata"] {
        let error = allowed
            .fetch(&format!("http://{host}/{path}").parse().unwrap())
            .await
            .unwrap_err();
        assert!(matches!(error, CrawlError::Blocked(_)), "{path}: {error:?}");
    }
}

#[tokio::test]
async fn oversized_pages_are_cut_and_slow_hosts_time_out() {
    let site = Router::new()
        .route(
            "/",
            get(|| async { Html(format!("{}<p>late@bakery.fi</p>", "x".repeat(200 * 1024))) }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_secs(5)).await;
                Html("<p>slow@bakery.fi</p>")
            }),
        );
    let host = serve(site).await;
    let result = crawler(&host)
        .crawl(&format!("http://{host}/"))
        .await
        .unwrap();
    assert!(
        result.emails.is_empty(),
        "the address after the 64 KiB limit is not read: {:?}",
        result.emails
    );
    let started = std::time::Instant::now();
    let error = crawler(&host)
        .fetch(&format!("http://{host}/slow").parse().unwrap())
        .await
        .unwrap_err();
    assert!(
        matches!(error, CrawlError::Fetch(..)) && started.elapsed() < Duration::from_secs(4),
        "{error:?}"
    );
}

#[tokio::test]
async fn a_restricted_crawler_reaches_only_its_allow_list() {
    let site = Router::new().route("/", get(|| async { Html("<p>hi@site.fi</p>") }));
    let host = serve(site).await;
    let restricted = Crawler::new(CrawlerSettings {
        allow_hosts: vec![host.clone()],
        restrict_to_allow_hosts: true,
        ..CrawlerSettings::default()
    });
    assert_eq!(
        restricted
            .crawl(&format!("http://{host}/"))
            .await
            .unwrap()
            .emails[0]
            .address,
        "hi@site.fi"
    );
    // Refused before any DNS lookup.
    assert!(matches!(
        restricted.crawl("https://www.starbucks.fi/").await,
        Err(CrawlError::Blocked(_))
    ));
}
