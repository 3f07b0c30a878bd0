//! Monitoring (issue 22): every Grafana dashboard loads and, like the alert rules, names only metrics the app
//! exports, compared with the Prometheus exposition after a send, a tracked open, a reply read, a draft written and
//! a refused webhook and a scheduler tick.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use super::*;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// This test binary's recorder (installed once: a process has one).
fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new().install_recorder().unwrap();
        outreach_core::platform::telemetry::describe();
        handle
    })
}

/// The `outreach_*` metric names in a query text, histograms by their base name.
fn metric_names(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with("outreach_"))
        .map(|word| {
            ["_bucket", "_sum", "_count"]
                .iter()
                .fold(word, |name, suffix| name.trim_end_matches(suffix))
                .to_string()
        })
        .collect()
}

/// Each dashboard of `grafana/dashboards`: (file, the metric names its queries use).
fn dashboards() -> Vec<(String, BTreeSet<String>)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(format!("{ROOT}/grafana/dashboards")).unwrap() {
        let path = entry.unwrap().path();
        let board: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        assert!(
            board["uid"].is_string() && board["title"].is_string(),
            "{}",
            path.display()
        );
        let mut names = BTreeSet::new();
        for panel in board["panels"].as_array().unwrap() {
            let targets = panel["targets"].as_array().unwrap();
            assert!(
                !targets.is_empty(),
                "{}: {}",
                path.display(),
                panel["title"]
            );
            for target in targets {
                assert_eq!(target["datasource"]["uid"], "prometheus");
                names.extend(metric_names(target["expr"].as_str().unwrap()));
            }
        }
        found.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            names,
        ));
    }
    found.sort();
    found
}

/// The names of the metrics an exposition holds (histograms by their base name).
fn exported(exposition: &str) -> BTreeSet<String> {
    exposition
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(|line| metric_names(line.split(['{', ' ']).next().unwrap_or_default()))
        .collect()
}

#[tokio::test]
async fn dashboards_and_alerts_name_only_metrics_exported_after_a_send() {
    let metrics = recorder();
    let boards = dashboards();
    let names: Vec<&str> = boards.iter().map(|(file, _)| file.as_str()).collect();
    assert_eq!(
        names,
        [
            "ai.json",
            "discovery.json",
            "overview.json",
            "queue.json",
            "sending.json",
            "tracking.json"
        ]
    );
    let alerts =
        metric_names(&std::fs::read_to_string(format!("{ROOT}/grafana/alerts.yml")).unwrap());
    assert!(alerts.len() >= 5, "{alerts:?}");

    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        // A send through the outbox, an open of it by a person, a reply the workers read.
        let SentCampaign { outbox, .. } = sent_campaign(&ada, "Watched", 2).await;
        let first = &outbox[0];
        let html = first["htmlBody"].as_str().unwrap().replace("&amp;", "&");
        let start = html.find(&format!("{}/t/o/", app.base)).unwrap();
        let pixel = &html[start..start + html[start..].find('"').unwrap()];
        app.clock.advance(60_000);
        let opened = reqwest::Client::new()
            .get(pixel)
            .header("user-agent", "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15")
            .send()
            .await
            .unwrap();
        assert_eq!(opened.status(), StatusCode::OK);
        let (status, _) = ada
            .post_json(
                &format!("/api/outbox/{}/reply", first["id"]),
                json!({ "body": "Sounds good, tell me more." }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        reading_of(&ada, first["toEmail"].as_str().unwrap()).await;
        // A draft by the writer, and a webhook request that is refused.
        let (status, _) = ada.post_json("/api/emails/generate", brief()).await;
        assert_eq!(status, StatusCode::OK);
        let refused = reqwest::Client::new()
            .post(format!("{}/api/webhooks/sendgrid/events", app.base))
            .header("content-type", "application/json")
            .body("[]")
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
        outreach_scheduler::tick(&app.ctx).await;
        app.stop().await;
    })
    .await;

    let exposition = metrics.render();
    for line in [
        r#"outreach_sends_total{provider="outbox",outcome="sent"}"#,
        r#"outreach_webhook_requests_total{endpoint="sendgrid_events",outcome="refused"}"#,
        r#"outreach_ai_calls_total{provider="offline",purpose="email",outcome="success"}"#,
        r#"outreach_tracking_events_total{kind="open",source="human"}"#,
        // Where the send batch spent its time (issue 32), one count per timed call.
        r#"outreach_send_step_seconds_count{step="load"}"#,
        r#"outreach_send_step_seconds_count{step="claim"}"#,
        r#"outreach_send_step_seconds_count{step="compose"}"#,
        r#"outreach_send_step_seconds_count{step="smtp"}"#,
        r#"outreach_send_step_seconds_count{step="mark_sent"}"#,
    ] {
        let value = exposition
            .lines()
            .find(|exported| exported.starts_with(line))
            .and_then(|exported| exported.rsplit(' ').next())
            .and_then(|value| value.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{line} missing in\n{exposition}"));
        assert!(value >= 1.0, "{line} is {value}");
    }
    let exported = exported(&exposition);
    for (file, names) in boards
        .iter()
        .chain([("alerts.yml".to_string(), alerts)].iter())
    {
        let missing: Vec<_> = names.difference(&exported).collect();
        assert!(
            missing.is_empty(),
            "{file} names metrics the app does not export: {missing:?}"
        );
    }
}
