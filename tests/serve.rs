//! `outreach serve` as a process: JSON logs without secrets, health and readiness, the Prometheus listener with
//! request metrics, and a clean stop on SIGTERM.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SECRET: &str = "client-secret-that-must-not-leak";

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A minimal HTTP/1.0 GET: (status line, body).
fn get(port: u16, path: &str) -> Option<(String, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    Some((head.lines().next()?.to_string(), body.to_string()))
}

#[test]
fn serve_reports_health_metrics_and_json_logs_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let (http, metrics) = (free_port(), free_port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_outreach"))
        .arg("serve")
        .current_dir(dir.path())
        .env(
            "OUTREACH_DATABASE__URL",
            format!("sqlite://{}/data/outreach.db", dir.path().display()),
        )
        .env("OUTREACH_HTTP__LISTEN", format!("127.0.0.1:{http}"))
        .env("OUTREACH_METRICS__LISTEN", format!("127.0.0.1:{metrics}"))
        .env("OUTREACH_LOG__FORMAT", "json")
        .env("OUTREACH_LOG__LEVEL", "debug")
        .env("OUTREACH_GOOGLE__CLIENT_ID", "client-id")
        .env("OUTREACH_GOOGLE__CLIENT_SECRET", SECRET)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the logs while the server runs: a full pipe would block it.
    let mut stderr = child.stderr.take().unwrap();
    let logs = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });

    let started = Instant::now();
    let ready = loop {
        if let Some(answer) = get(http, "/readyz") {
            break answer;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "serve did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        ready.0.contains("200") && ready.1.contains("\"ready\""),
        "{ready:?}"
    );
    assert!(get(http, "/healthz").unwrap().0.contains("200"));
    assert!(get(http, "/api/auth/user").unwrap().0.contains("401"));
    assert!(
        dir.path().join("data/outreach.db").exists(),
        "database created on first start"
    );
    assert!(
        dir.path().join("data/secret.key").exists(),
        "secret key generated into the data folder"
    );

    // Every metric the Grafana dashboard queries is exported (the scheduler's first tick runs a job at start).
    let wanted = dashboard_metrics();
    let (status, exposition) = loop {
        let answer = get(metrics, "/metrics").unwrap();
        if wanted.iter().all(|name| answer.1.contains(name.as_str())) {
            break answer;
        }
        let missing: Vec<_> = wanted
            .iter()
            .filter(|name| !answer.1.contains(name.as_str()))
            .collect();
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "dashboard metrics never exported: {missing:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.contains("200"), "{status}");
    for line in [
        r#"outreach_http_requests_total{method="GET",route="/healthz",status="2xx"} 1"#,
        r#"outreach_http_requests_total{method="GET",route="/api/auth/user",status="4xx"} 1"#,
    ] {
        assert!(exposition.contains(line), "missing {line} in\n{exposition}");
    }
    assert!(exposition.contains("outreach_http_request_duration_seconds_bucket"));

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "a clean stop on SIGTERM, got {status}");
    let logs = logs.join().unwrap();
    assert!(!logs.is_empty());
    for line in logs.lines() {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}"));
        assert!(
            entry["level"].is_string() && entry["timestamp"].is_string(),
            "{line}"
        );
    }
    assert!(logs.contains("API listening"));
    assert!(
        !logs.contains(SECRET),
        "the client secret leaked into the logs"
    );
}

/// The metric names used in the dashboard's queries (histograms by their base name).
fn dashboard_metrics() -> Vec<String> {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/grafana/dashboards/outreach.json"
    );
    let dashboard: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let mut names: Vec<String> = dashboard["panels"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|panel| panel["targets"].as_array().unwrap().iter())
        .flat_map(|target| {
            let expr = target["expr"].as_str().unwrap().to_string();
            expr.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|word| word.starts_with("outreach_"))
                .map(|word| word.trim_end_matches("_bucket").to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    names.sort();
    names.dedup();
    assert!(names.len() >= 6, "{names:?}");
    names
}
