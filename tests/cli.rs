//! The `outreach` command line on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: a job that fails is listed and
//! shown by `jobs list`/`jobs show`, and `jobs retry` puts it back so the worker completes it.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::ExpireSubscriptions;
use outreach_core::testing::each_backend;
use outreach_core::{Context, Settings};

/// Runs the binary against the test database, from an empty folder so no `outreach.toml` is picked up.
fn outreach(url: &str, args: &[&str]) -> (bool, String) {
    let folder = std::env::temp_dir();
    let output = Command::new(env!("CARGO_BIN_EXE_outreach"))
        .args(args)
        .current_dir(folder)
        .env("OUTREACH_DATABASE__URL", url)
        .output()
        .expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_job_is_listed_shown_and_retried_from_the_command_line() {
    each_backend(|test_db| async move {
        let (db, url) = (test_db.db.clone(), test_db.url.clone());
        let mut settings = Settings::default();
        settings.queue.max_attempts = 1;
        let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));

        test_db
            .execute("alter table users rename to users_elsewhere")
            .await;
        ctx.queue
            .enqueue(ExpireSubscriptions { tick: "cli".into() }, None)
            .await
            .unwrap();
        outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(60))
            .await
            .unwrap();

        let (ok, listed) = outreach(
            &url,
            &[
                "jobs",
                "list",
                "--status",
                "failed",
                "--kind",
                "expiresubscriptions",
            ],
        );
        assert!(ok, "{listed}");
        let line = listed
            .lines()
            .find(|line| line.contains("ExpireSubscriptions"))
            .expect(&listed);
        assert!(
            line.contains("Failed") && line.contains("1/1") && line.contains("users"),
            "{line}"
        );
        let id = line.split_whitespace().next().unwrap().to_string();
        assert_eq!(
            outreach(&url, &["jobs", "list", "--status", "done"])
                .1
                .trim(),
            "no jobs"
        );

        let (ok, shown) = outreach(&url, &["jobs", "show", &id]);
        assert!(
            ok && shown.contains("\"payload\"") && shown.contains("cli") && shown.contains("users"),
            "{shown}"
        );

        let (ok, refused) = outreach(&url, &["jobs", "list", "--status", "exploded"]);
        assert!(
            !ok && refused.contains("unknown status exploded"),
            "{refused}"
        );
        let (ok, refused) = outreach(&url, &["jobs", "retry", "--failed", "--kind", "Nope"]);
        assert!(
            !ok && refused.contains("unknown job kind Nope"),
            "{refused}"
        );

        test_db
            .execute("alter table users_elsewhere rename to users")
            .await;
        let (ok, retried) = outreach(&url, &["jobs", "retry", &id]);
        assert!(
            ok && retried.contains("re-enqueued 1 job(s)") && retried.contains(&id),
            "{retried}"
        );
        let (ok, again) = outreach(&url, &["jobs", "retry", &id]);
        assert!(!ok && again.contains("is not failed"), "{again}");
        outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(60))
            .await
            .unwrap();
        let (_, done) = outreach(&url, &["jobs", "list", "--status", "done"]);
        assert!(done.contains(&id), "{done}");

        // --failed retries every failed job of a kind.
        test_db
            .execute("alter table users rename to users_elsewhere")
            .await;
        for tick in ["a", "b"] {
            ctx.queue
                .enqueue(ExpireSubscriptions { tick: tick.into() }, None)
                .await
                .unwrap();
        }
        outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(60))
            .await
            .unwrap();
        test_db
            .execute("alter table users_elsewhere rename to users")
            .await;
        let (ok, retried) = outreach(
            &url,
            &["jobs", "retry", "--failed", "--kind", "ExpireSubscriptions"],
        );
        assert!(ok && retried.contains("re-enqueued 2 job(s)"), "{retried}");
        outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(60))
            .await
            .unwrap();
        assert_eq!(
            ctx.queue.list(Some("Done"), None, 10).await.unwrap().len(),
            3
        );
        test_db.cleanup().await;
    })
    .await;
}

#[test]
fn config_default_prints_every_section_and_unknown_keys_stop_the_start() {
    let (ok, example) = outreach("sqlite://unused.db", &["config", "default"]);
    assert!(ok);
    for section in [
        "[database]",
        "[http]",
        "[metrics]",
        "[google]",
        "[auth]",
        "[security]",
        "[queue]",
    ] {
        assert!(example.contains(section), "{section}");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_outreach"))
        .args(["migrate"])
        .current_dir(std::env::temp_dir())
        .env("OUTREACH_HTTP__LISTN", "127.0.0.1:1")
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && error.contains("listn"),
        "{error}"
    );
}

#[tokio::test]
async fn the_osm_extract_imports_from_the_command_line() {
    let extract = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/osm/Helsinki.osm.pbf"
    );
    each_backend(|test_db| async move {
        let (ok, output) = outreach(&test_db.url, &["import", "osm", extract]);
        assert!(ok, "{output}");
        assert!(
            output.contains("businesses") && output.contains("OpenStreetMap contributors"),
            "{output}"
        );
        let (places, _) = outreach_core::discovery::directory::counts(&test_db.db)
            .await
            .unwrap();
        assert!(places > 1000, "{places}");
        let (ok, output) = outreach(
            &test_db.url,
            &["import", "osm", "/nonexistent/extract.osm.pbf"],
        );
        assert!(
            !ok && output.contains("cannot read the OpenStreetMap extract"),
            "{output}"
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test]
async fn uploads_are_read_in_a_child_process_that_answers_for_the_file_or_is_given_up_on() {
    use outreach_core::campaigns::education::{EducationError, Extractor, fixtures};
    let child = Extractor::ChildProcess(env!("CARGO_BIN_EXE_outreach").into());
    let text = child
        .extract(
            "about.pdf",
            fixtures::pdf(&["Nordic Bakery has baked since 1989."]),
        )
        .await
        .unwrap();
    assert!(
        text.contains("Nordic Bakery has baked since 1989."),
        "{text}"
    );
    assert!(matches!(
        child.extract("bomb.pdf", fixtures::pdf_bomb(20)).await,
        Err(EducationError::TooComplex(_))
    ));
    assert!(matches!(
        child
            .extract("broken.pdf", fixtures::pdf_without_media_box())
            .await,
        Err(EducationError::Unreadable(..))
    ));
    // A reader that dies (here: one that only fails) is given up on with the clear refusal, and the server lives.
    let dying = Extractor::ChildProcess("/bin/false".into());
    assert_eq!(
        dying.extract("odd.pdf", fixtures::pdf(&["x"])).await,
        Err(EducationError::TooComplex("odd.pdf".into()))
    );
}

/// `outreach eval replies` scores the offline classifier on the shipped held-out set and meets the targets: sentiment
/// and action macro-F1 at least 0.75, escalation recall at least 0.95; the last line names the three figures. A
/// malformed set is refused with the line at fault.
#[test]
fn the_reply_evaluation_scores_the_offline_classifier_on_the_held_out_set() {
    let set = concat!(env!("CARGO_MANIFEST_DIR"), "/core/data/replies/test.jsonl");
    let (ok, text) = outreach("sqlite://unused.db", &["eval", "replies", set]);
    assert!(ok, "{text}");
    let last = text.trim().lines().last().unwrap();
    let figure = |name: &str| -> f64 {
        last.split_whitespace()
            .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("{name} in {last}"))
            .parse()
            .unwrap()
    };
    assert!(figure("sentiment_f1") >= 0.75, "{text}");
    assert!(figure("action_f1") >= 0.75, "{text}");
    assert!(figure("escalation_recall") >= 0.95, "{text}");
    assert!(text.contains("automatic answers: accuracy"), "{text}");
    assert!(text.contains("mark_not_interested  precision"), "{text}");

    let bad = std::env::temp_dir().join(format!("replies-{}.jsonl", std::process::id()));
    std::fs::write(&bad, "{\"subject\":\"Hi\"}\n").unwrap();
    let (ok, text) = outreach(
        "sqlite://unused.db",
        &["eval", "replies", bad.to_str().unwrap()],
    );
    std::fs::remove_file(&bad).ok();
    assert!(!ok && text.contains("line 1:"), "{text}");
}
