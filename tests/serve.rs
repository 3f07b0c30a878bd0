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

    // The scheduler's first tick runs at start; the operators' series exist from the start (tests/api's monitoring
    // test compares the dashboards and alerts with the metrics after a send).
    let wanted = [
        "outreach_scheduler_last_tick_timestamp_seconds",
        r#"outreach_sends_total{provider="smtp",outcome="refused"} 0"#,
        "outreach_http_requests_total",
    ];
    let (status, exposition) = loop {
        let answer = get(metrics, "/metrics").unwrap();
        if wanted.iter().all(|name| answer.1.contains(name)) {
            break answer;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "metrics never exported: {wanted:?} in\n{}",
            answer.1
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
