//! Facts read by a configured model (issue 82) against a local fake provider (wiremock) that checks it is shown the
//! pages' visible blocks only, as data: what it points at is kept only when it stands on its page.

use chrono::NaiveDate;
use outreach_core::discovery::facts::{Page, read_facts};
use outreach_core::platform::config::{AiSettings, Secret};
use outreach_core::writing::ai::writer::Writer;
use outreach_core::writing::icebreaker::FactKind;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const HOME: &str = "https://bluebird-coffee.example/";

fn home() -> Page {
    let html = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/icebreakers/dev/bluebird-coffee/index.html"
    ))
    .unwrap();
    Page::parse(&html, HOME)
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 12, 1).unwrap()
}

/// An OpenAI-compatible writer whose provider is the fake `server`.
fn writer_at(server: &MockServer) -> Writer {
    Writer::from_settings(&AiSettings {
        provider: "openai".parse().unwrap(),
        base_url: server.uri(),
        api_key: Secret::new("sk-test"),
        model: "test-model".into(),
        timeout_seconds: 5,
        ..AiSettings::default()
    })
    .unwrap()
}

async fn model_answering(facts: Value) -> (MockServer, Writer) {
    let server = MockServer::start().await;
    let answer = json!({ "facts": facts }).to_string();
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(|request: &Request| {
            let body: Value = serde_json::from_slice(&request.body).unwrap();
            let shown = body["messages"][1]["content"].as_str().unwrap();
            // The page's blocks as data; the cookie banner and the navigation never reach the model.
            shown.contains(&format!("<page url=\"{HOME}\">"))
                && shown.contains("<block>We are best known for our cardamom buns.</block>")
                && !shown.contains("We use cookies")
                && body["response_format"]["json_schema"]["schema"]["required"] == json!(["facts"])
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{ "message": { "role": "assistant", "content": answer } }]
        })))
        .expect(1)
        .mount(&server)
        .await;
    let writer = writer_at(&server);
    (server, writer)
}

#[tokio::test]
async fn a_models_facts_are_kept_only_where_they_stand_on_the_page() {
    let rules_only = read_facts(&Writer::Offline, &[home()], "Bluebird Coffee", today()).await;
    let (_server, writer) = model_answering(json!([
        // On the page, though the rules do not take it: kept, its claim as the page writes it.
        { "kind": "product", "url": HOME, "quote": "Bluebird was founded in 2009 by Maria Lindqvist. We roast small batches every week.", "claim": "ROAST SMALL BATCHES" },
        // Invented: no such sentence.
        { "kind": "award", "url": HOME, "quote": "Voted the best café in Finland.", "claim": "best café in Finland" },
        // A sentence of the cookie banner, which the model was never shown.
        { "kind": "news", "url": HOME, "quote": "We use cookies to improve your experience. By continuing you accept our cookie policy.", "claim": "cookies" },
        // A claim its quote does not make.
        { "kind": "owner", "url": HOME, "quote": "We are best known for our cardamom buns.", "claim": "Maria Lindqvist" },
        // Another site's page.
        { "kind": "product", "url": "https://elsewhere.example/", "quote": "We are best known for our cardamom buns.", "claim": "cardamom buns" }
    ]))
    .await;
    let facts = read_facts(&writer, &[home()], "Bluebird Coffee", today()).await;
    assert_eq!(
        facts[..rules_only.len()],
        rules_only[..],
        "the rules' facts first, as they were"
    );
    let added: Vec<(FactKind, &str, &str)> = facts[rules_only.len()..]
        .iter()
        .map(|fact| (fact.kind, fact.claim.as_str(), fact.url.as_str()))
        .collect();
    assert_eq!(added, [(FactKind::Product, "roast small batches", HOME)]);
}

#[tokio::test]
async fn a_model_that_fails_leaves_the_rules_facts() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let writer = writer_at(&server);
    let rules_only = read_facts(&Writer::Offline, &[home()], "Bluebird Coffee", today()).await;
    assert!(!rules_only.is_empty());
    assert_eq!(
        read_facts(&writer, &[home()], "Bluebird Coffee", today()).await,
        rules_only
    );
}
