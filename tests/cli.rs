//! The `outreach` command line on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: a job that fails is listed and
//! shown by `jobs list`/`jobs show`, and `jobs retry` puts it back so the worker completes it (audited); the operator's
//! `users`, `campaigns` and `reprocess` commands write the audit entry the console writes.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use outreach_core::admin::listing::AUDIT;
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
        assert!(
            ok && retried.contains("every failed ExpireSubscriptions job is back in the queue"),
            "{retried}"
        );
        outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(60))
            .await
            .unwrap();
        assert_eq!(
            ctx.queue
                .list(
                    Some(outreach_core::platform::queue::JobStatus::Done),
                    None,
                    10
                )
                .await
                .unwrap()
                .len(),
            3
        );
        // Each retry is in the audit log as the console's are, and the refused one is not.
        let page = AUDIT.page(None, true, 50, 0).unwrap();
        let (entries, _) = ctx
            .db
            .admin()
            .admin_audit("cli", "", "", &page)
            .await
            .unwrap();
        let actions: Vec<(&str, &str)> = entries
            .iter()
            .map(|entry| (entry.action.as_str(), entry.target_id.as_str()))
            .collect();
        assert_eq!(
            actions,
            [
                ("job.retry_failed", "ExpireSubscriptions"),
                ("job.retry", id.as_str())
            ]
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
        "/core/data/osm/Helsinki.osm.pbf"
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
            1,
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
        child.extract(1, "bomb.pdf", fixtures::pdf_bomb(20)).await,
        Err(EducationError::TooComplex(_))
    ));
    assert!(matches!(
        child
            .extract(1, "broken.pdf", fixtures::pdf_without_media_box())
            .await,
        Err(EducationError::Unreadable(..))
    ));
    // A reader that dies (here: one that only fails) is given up on with the clear refusal, and the server lives.
    let dying = Extractor::ChildProcess("/bin/false".into());
    assert_eq!(
        dying.extract(1, "odd.pdf", fixtures::pdf(&["x"])).await,
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
    let figure = |name: &str| last_line_figure(&text, name);
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

/// Issue 30.1: `outreach eval replies FOLDER --folds 5` cross-validates the offline reader on the corpus (each part
/// read by a model trained on the others), with one line of figures per language, and it reads a corpus written
/// independently of its rules about as well as the rules read their own set.
#[test]
fn the_reply_reader_is_cross_validated_on_the_corpus_with_figures_per_language() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/core/data/replies/corpus");
    let (ok, text) = outreach(
        "sqlite://unused.db",
        &["eval", "replies", corpus, "--folds", "5"],
    );
    assert!(ok, "{text}");
    assert!(text.contains("5-fold cross-validation"), "{text}");
    for language in ["de", "en", "es", "fi", "fr"] {
        assert!(
            text.contains(&format!("  {language}: sentiment_f1=")),
            "{text}"
        );
    }
    let figure = |name: &str| last_line_figure(&text, name);
    // Issue 30's goals: 0.805, 0.818 and 0.953 measured (the rules alone read this corpus at 0.509, 0.417 and 0.554).
    assert!(figure("sentiment_f1") >= 0.80, "{text}");
    assert!(figure("action_f1") >= 0.75, "{text}");
    assert!(figure("escalation_recall") >= 0.95, "{text}");
}

/// A figure of an evaluation's last line (`name=value`).
fn last_line_figure(text: &str, name: &str) -> f64 {
    let last = text.trim().lines().last().unwrap();
    last.split_whitespace()
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
        .unwrap_or_else(|| panic!("{name} in {last}"))
        .parse()
        .unwrap()
}

/// The JSON a `--json` command printed.
fn json_of(output: &str) -> serde_json::Value {
    serde_json::from_str(output).unwrap_or_else(|error| panic!("{error}: {output}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_change_users_and_campaigns_and_reprocess_work_with_an_audit_entry_each() {
    use outreach_core::campaigns::CampaignStatus;
    use outreach_core::campaigns::store::NewCampaign;
    use outreach_core::platform::jobs::{ClassifyReply, EnrichBusiness, Job, RunSearchChunk};
    use outreach_core::platform::window::SendingWindow;

    each_backend(|test_db| async move {
        let (db, url) = (test_db.db.clone(), test_db.url.clone());
        let ctx = Context::new(db.clone(), Settings::default(), Arc::new(SystemClock));
        db.accounts().upsert_user_on_sign_in("ada@example.org", Some("Ada"), Some("Lovelace"), 1).await.unwrap();

        // Users: listed (waiting for access), granted, set to a trial, activated, shown.
        let (ok, listed) = outreach(&url, &["users", "list", "--group", "waiting", "--json"]);
        assert!(ok, "{listed}");
        assert_eq!(json_of(&listed)[0]["email"], "ada@example.org");
        let (ok, refused) = outreach(&url, &["users", "list", "--group", "vip"]);
        assert!(!ok && refused.contains("vip"), "{refused}");
        let (ok, granted) = outreach(&url, &["users", "grant", "ada@example.org", "--limit", "300"]);
        assert!(ok && granted.contains("User ada@example.org has been granted premium access with 300 emails for 30 days"), "{granted}");
        let (ok, trial) = outreach(&url, &["users", "trial", "grace@example.org", "--json"]);
        assert!(ok, "{trial}");
        let entry = json_of(&trial);
        assert_eq!((entry["actor"].as_str(), entry["action"].as_str(), entry["targetId"].as_str()), (Some("cli"), Some("user.free_trial"), Some("grace@example.org")));
        let (ok, again) = outreach(&url, &["users", "activate", "ada@example.org"]);
        assert!(ok && again.contains("was already active"), "{again}");
        let (ok, shown) = outreach(&url, &["users", "show", "ADA@example.org", "--json"]);
        let shown = json_of(&shown);
        assert!(ok);
        assert_eq!((shown["subscriptionPlan"].as_str(), shown["emailLimit"].as_i64(), shown["name"].as_str()), (Some("premium"), Some(300), Some("Ada Lovelace")));
        let (ok, missing) = outreach(&url, &["users", "show", "nobody@example.org"]);
        assert!(!ok && missing.contains("No user found with email nobody@example.org"), "{missing}");
        let (ok, listed) = outreach(&url, &["users", "list"]);
        assert!(ok && listed.contains("2 of 2 user(s)"), "{listed}");

        // Campaigns: paused and resumed across users.
        let ada = db.accounts().find_user_by_email("ada@example.org").await.unwrap().unwrap();
        let campaign = NewCampaign { name: "Cafés", status: CampaignStatus::Active, business_type: None,
            geographic_area: None, radius: 25, max_results: 50, window: &SendingWindow::always() };
        let campaign = db.campaigns().insert_campaign(ada.id, &campaign, 1).await.unwrap();
        let id = campaign.to_string();
        let (ok, paused) = outreach(&url, &["campaigns", "pause", &id]);
        assert!(ok && paused.contains(&format!("Campaign {id} is paused")), "{paused}");
        let (ok, refused) = outreach(&url, &["campaigns", "pause", "999999"]);
        assert!(!ok && refused.contains("No campaign with id 999999"), "{refused}");
        let (ok, resumed) = outreach(&url, &["campaigns", "resume", &id, "--json"]);
        assert!(ok && json_of(&resumed)["action"] == "campaign.resume", "{resumed}");
        let (ok, refused) = outreach(&url, &["campaigns", "resume", &id]);
        assert!(!ok && refused.contains("Only a paused campaign can be resumed"), "{refused}");

        // Senders: their health and the pools they are in (issue 79).
        let sender = db.sending().insert_email_config(ada.id, &outreach_core::testing::loopback_smtp_sender(25), 1).await.unwrap();
        db.sending().set_campaign_pool(campaign, &[sender]).await.unwrap();
        test_db.execute("update email_configs set out_at = 1, out_reason = 'Taken out of rotation: a recipient reported its email as spam'").await;
        let (ok, listed) = outreach(&url, &["senders", "list", "--json"]);
        assert!(ok, "{listed}");
        let listed = json_of(&listed);
        assert_eq!(
            (listed[0]["sendFrom"].as_str(), listed[0]["state"].as_str(), listed[0]["campaigns"].clone()),
            (Some("ada@bakery.example"), Some("out"), serde_json::json!(["Cafés"])),
            "{listed}"
        );
        assert!(listed[0]["stateReason"].as_str().unwrap().contains("reported its email as spam"), "{listed}");
        let (ok, lines) = outreach(&url, &["senders", "list"]);
        assert!(ok && lines.contains("[pools: Cafés]") && lines.contains("1 of 1 sender(s)"), "{lines}");

        // Reprocessing: a failed search from its next chunk, failed website lookups, replies since a date.
        test_db.execute("insert into searches (user_id, search_type, search_term, params, status, chunks_total, chunks_done, error, created_at)
            select id, 'local', 'cafe', '{}', 'failed', 3, 1, 'provider down', 1 from users where email = 'ada@example.org'").await;
        test_db.execute("insert into businesses (user_id, name, website, provider, found_at, name_address_key, email_status, website_error, created_at)
            select id, 'Cafe Ada', 'https://cafe.example', 'import', 1, 'cafe ada', 'not_found', 'timed out', 1 from users where email = 'ada@example.org'").await;
        test_db.execute("insert into inbound_messages (user_id, kind, from_email, subject, body, source, received_at)
            select id, 'reply', 'owner@cafe.example', 'Re: Bread', 'Tell me more', 'imap', 1793491200000 from users where email = 'ada@example.org'").await;
        let (ok, refused) = outreach(&url, &["reprocess", "search", "999999"]);
        assert!(!ok && refused.contains("No search with id 999999"), "{refused}");
        let search_id: i64 = outreach_core::on_db!(&db, pool => sqlx::query_scalar("select id from searches").fetch_one(pool).await).unwrap();
        let (ok, reopened) = outreach(&url, &["reprocess", "search", &search_id.to_string(), "--json"]);
        assert!(ok, "{reopened}");
        assert!(json_of(&reopened)["after"].as_str().unwrap().contains("\"fromChunk\":2"), "{reopened}");
        let search = db.discovery().load_search(search_id).await.unwrap().unwrap();
        assert_eq!(search.status.as_str(), "running");
        let (ok, enriched) = outreach(&url, &["reprocess", "enrichment", "--failed"]);
        assert!(ok && enriched.contains("Queued the website lookup of 1 business(es) again"), "{enriched}");
        let (ok, refused) = outreach(&url, &["reprocess", "enrichment"]);
        assert!(!ok && refused.contains("--failed"), "{refused}");
        let (ok, refused) = outreach(&url, &["reprocess", "enrichment", "--business", "999999"]);
        assert!(!ok && refused.contains("No business with id 999999"), "{refused}");
        let (ok, read) = outreach(&url, &["reprocess", "replies", "--since", "2026-11-01"]);
        assert!(ok && read.contains("Queued 1 reply(ies) to be read again"), "{read}");
        let (ok, none) = outreach(&url, &["reprocess", "replies", "--since", "2026-11-02"]);
        assert!(ok && none.contains("No reply was received since 2026-11-02T00:00:00.000Z"), "{none}");
        let (ok, refused) = outreach(&url, &["reprocess", "replies", "--since", "last week"]);
        assert!(!ok && refused.contains("--since must be a date"), "{refused}");

        for kind in [<RunSearchChunk as Job>::KIND, <EnrichBusiness as Job>::KIND, <ClassifyReply as Job>::KIND] {
            assert_eq!(ctx.queue.list(None, Some(kind), 10).await.unwrap().len(), 1, "{kind}");
        }
        let page = AUDIT.page(None, true, 50, 0).unwrap();
        let (entries, _) = db.admin().admin_audit("cli", "", "", &page).await.unwrap();
        let actions: Vec<&str> = entries.iter().map(|entry| entry.action.as_str()).collect();
        assert_eq!(actions, ["replies.reprocess", "enrichment.reprocess", "search.reprocess", "campaign.resume",
            "campaign.pause", "user.free_trial", "user.premium"], "one entry a change, none for refusals");
        test_db.cleanup().await;
    })
    .await;
}
