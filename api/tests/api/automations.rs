//! Automations (issue 21): validation and defaults, Pause/Start and delete, the daily run once per day across two
//! schedulers, businesses already emailed or suppressed never picked, the daily number, the total and the duration
//! stopping it, Run Now's result, run records, analytics, and the test that writes only to the test address.

use super::*;

const EXTRACT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../core/data/osm/Helsinki.osm.pbf"
);

async fn with_directory(test_db: TestDb) -> TestApp {
    let app = TestApp::start(test_db).await;
    outreach_core::discovery::directory::import_osm(&app.ctx.db, std::path::Path::new(EXTRACT), 1)
        .await
        .unwrap();
    app
}

async fn template(ada: &Browser) -> i64 {
    let (status, template) = ada.post_json("/api/email-templates", json!({
        "name": "Intro", "subject": "Bread for {{businessName}}", "objective": "Lead Generation", "tone": "friendly",
        "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
    })).await;
    assert_eq!(status, StatusCode::CREATED, "{template}");
    template["id"].as_i64().unwrap()
}

async fn idle(app: &TestApp) {
    outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(120))
        .await
        .unwrap();
}

#[tokio::test]
async fn automations_are_validated_defaulted_paused_started_and_deleted_by_their_owner() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let valid = json!({ "campaignName": "Daily cafés", "businessType": "cafe", "geographicArea": "Helsinki", "emailTemplateId": template });
        for (change, message) in [
            (json!({ "campaignName": " " }), "Campaign name is required"),
            (json!({ "businessType": "" }), "Business type is required"),
            (json!({ "geographicArea": "" }), "Geographic area is required"),
            (json!({ "emailTemplateId": null }), "Please select an email template"),
            (json!({ "radius": 0 }), "Search radius must be between 1 and 100 miles"),
            (json!({ "maxBusinessesPerDay": 51 }), "Businesses a day must be between 1 and 50"),
            (json!({ "maxTotalEmails": 1001 }), "Total emails must be between 1 and 1000"),
            (json!({ "campaignDurationMinutes": 10081 }), "Duration must be between 1 and 10080 minutes"),
        ] {
            let mut body = valid.clone();
            for (key, value) in change.as_object().unwrap() {
                if value.is_null() { body.as_object_mut().unwrap().remove(key); } else { body[key] = value.clone(); }
            }
            let (status, refused) = ada.post_json("/api/automations", body).await;
            assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)));
        }
        let (_, none) = ada.get_json("/api/automations").await;
        assert_eq!(none, json!([]), "a refused form creates nothing");

        let (status, created) = ada.post_json("/api/automations", valid.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        assert_eq!(
            (&created["radius"], &created["maxBusinessesPerDay"], &created["isActive"], &created["schedule"], &created["lastRun"]),
            (&json!(25), &json!(10), &json!(true), &json!("Daily"), &Value::Null)
        );
        // Issue 83.11: a new automation runs today, within a minute (the scheduler's next pass), then daily.
        assert_eq!(created["nextRun"].as_str(), Some(outreach_core::platform::clock::iso(app.clock.now_ms()).as_str()), "{created}");
        let (_, campaign) = ada.get_json(&format!("/api/campaigns/{}", created["campaignId"])).await;
        assert_eq!(campaign["name"], "Daily cafés", "its campaign is named after it");
        let path = format!("/api/automations/{}", created["id"]);

        let (_, paused) = ada.patch_json(&path, json!({ "isActive": false })).await;
        assert_eq!((&paused["isActive"], &paused["nextRun"]), (&json!(false), &Value::Null));
        let (_, started) = ada.patch_json(&path, json!({ "isActive": true })).await;
        assert_eq!(started["isActive"], true);
        let (status, refused) = ada.patch_json(&path, json!({ "maxBusinessesPerDay": 0 })).await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("Businesses a day must be between 1 and 50")));

        // Another user sees and touches nothing of it.
        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json("/api/automations").await.1, json!([]));
        assert_eq!(eve.patch_json(&path, json!({ "isActive": false })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.post_json(&format!("{path}/run"), json!({})).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.get_json(&format!("{path}/analytics")).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.delete_json(&path).await.0, StatusCode::NOT_FOUND);
        let mut theirs = valid.clone();
        theirs["emailTemplateId"] = json!(template);
        assert_eq!(eve.post_json("/api/automations", theirs).await.0, StatusCode::NOT_FOUND, "another user's template");

        // Today's run started: the next is at the start of the next UTC day.
        let today = outreach_core::platform::clock::date_of(app.clock.now_ms()).to_string();
        app.ctx.db.automations().start_day(&today, app.clock.now_ms()).await.unwrap();
        let (_, listed) = ada.get_json("/api/automations").await;
        assert_eq!(listed[0]["nextRun"], "2027-01-16T00:00:00.000Z", "{listed}");

        // Deleted: gone from the list, its campaign stays.
        assert_eq!(ada.delete_json(&path).await.0, StatusCode::OK);
        assert_eq!(ada.get_json("/api/automations").await.1, json!([]));
        assert_eq!(ada.get_json(&format!("/api/campaigns/{}", created["campaignId"])).await.0, StatusCode::OK);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_daily_run_emails_new_businesses_once_a_day_within_its_limits() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        // Before the automation: a campaign emailed one café, and another café unsubscribed.
        let workers = start_workers(&app);
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "By hand" })).await;
        let search = json!({ "searchType": "local", "businessType": "restaurant", "geographicArea": "Helsinki", "radius": 5, "maxResults": 50, "campaignId": campaign["id"] });
        let (_, found) = ada.post_json("/api/businesses/search", search).await;
        let found = ada.search_to_the_end(found).await;
        let with_email: Vec<Value> = found["businesses"].as_array().unwrap().iter().filter(|b| !b["email"].is_null()).cloned().collect();
        assert!(with_email.len() >= 2, "the extract has restaurants with addresses: {}", with_email.len());
        let emailed = with_email[0].clone();
        let suppressed = with_email[1].clone();
        launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template, "businessIds": [emailed["id"]] })).await;
        let (status, _) = ada.post_json("/api/unsubscribe", json!({ "email": suppressed["email"] })).await;
        assert!(status.is_success());
        workers.stop().await;

        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Daily restaurants", "businessType": "restaurant", "geographicArea": "Helsinki", "radius": 5,
            "maxBusinessesPerDay": 3, "maxTotalEmails": 7, "emailTemplateId": template
        })).await;
        let id = automation["id"].as_i64().unwrap_or_else(|| panic!("the automation is made: {automation}"));

        // Two schedulers tick the same day: one run.
        let other = Context::new(app.ctx.db.clone(), (*app.ctx.settings).clone(), app.clock.clone());
        let (first, second) = tokio::join!(outreach_scheduler::tick(&app.ctx), outreach_scheduler::tick(&other));
        assert!(first + second >= 1);
        idle(&app).await;
        let (_, runs) = ada.get_json("/api/automation-runs").await;
        assert_eq!(runs.as_array().unwrap().len(), 1, "{runs}");
        assert_eq!((runs[0]["status"].as_str(), runs[0]["emailsSent"].as_i64(), runs[0]["businessesTargeted"].as_i64(), runs[0]["manual"].as_bool()),
            (Some("completed"), Some(3), Some(3), Some(false)), "{runs}");
        assert_eq!(runs[0]["campaignName"], "Daily restaurants");
        let emailed_to = || async {
            let (_, outbox) = ada.get_json("/api/outbox").await;
            outbox.as_array().unwrap().iter()
                .filter(|m| m["campaignId"] == automation["campaignId"])
                .map(|m| m["toEmail"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        let day_one = emailed_to().await;
        assert_eq!(day_one.len(), 3);
        for skipped in [&emailed, &suppressed] {
            let address = skipped["email"].as_str().unwrap().to_lowercase();
            assert!(!day_one.contains(&address), "{address} must never be picked: {day_one:?}");
        }
        let (_, card) = ada.get_json("/api/automations").await;
        assert!(card[0]["lastRun"].is_string());
        // Issue 30.3: the card, the run report, the analytics and the console say the same of what was sent.
        let (_, figures) = ada.get_json(&format!("/api/automations/{id}/analytics")).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let (_, console) = admin.get_json(&format!("/api/admin/campaigns/{}", automation["campaignId"])).await;
        assert_eq!(
            (&card[0]["emailsSent"], &card[0]["emailsWaiting"], &card[0]["emailsWritten"], &runs[0]["emailsWaiting"],
                &figures["emailsSent"], &console["sent"], &console["queued"]),
            (&json!(3), &json!(0), &json!(3), &json!(0), &json!(3), &json!(3), &json!(0)),
            "card {card} runs {runs} analytics {figures} console {console}"
        );

        // The next day: three new ones; the day after, the last one of its total of seven, and it ends for good.
        app.clock.advance(DAY_MS);
        outreach_scheduler::tick(&app.ctx).await;
        idle(&app).await;
        let day_two = emailed_to().await;
        assert_eq!(day_two.len(), 6);
        let distinct: std::collections::HashSet<&String> = day_two.iter().collect();
        assert_eq!(distinct.len(), 6, "nobody twice: {day_two:?}");
        app.clock.advance(DAY_MS);
        outreach_scheduler::tick(&app.ctx).await;
        idle(&app).await;
        assert_eq!(emailed_to().await.len(), 7);
        let (_, card) = ada.get_json("/api/automations").await;
        assert_eq!((card[0]["isActive"].as_bool(), card[0]["endedReason"].as_str(), card[0]["emailsSent"].as_i64()),
            (Some(false), Some("Ended: its 7 emails are sent"), Some(7)));
        assert_eq!(card[0]["nextRun"], Value::Null);
        // Ended: no more daily runs, and Run Now says why and sends nothing.
        app.clock.advance(DAY_MS);
        outreach_scheduler::tick(&app.ctx).await;
        idle(&app).await;
        let _workers = start_workers(&app);
        let (status, result) = ada.post_json(&format!("/api/automations/{id}/run"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{result}");
        assert_eq!((result["status"].as_str(), result["emailsSent"].as_i64(), result["message"].as_str()),
            (Some("ended"), Some(0), Some("Ended: its 7 emails are sent")));
        let (status, refused) = ada.patch_json(&format!("/api/automations/{id}"), json!({ "isActive": true })).await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::CONFLICT, Some("This automation has ended. Ended: its 7 emails are sent")));
        let (_, runs) = ada.get_json("/api/automation-runs").await;
        assert_eq!(runs.as_array().unwrap().len(), 4, "three daily runs and one run now: {runs}");

        let (_, figures) = ada.get_json(&format!("/api/automations/{id}/analytics")).await;
        assert_eq!((figures["emailsSent"].as_i64(), figures["openRate"].as_f64()), (Some(7), Some(0.0)));
        let (_, analytics) = ada.get_json("/api/analytics/campaigns").await;
        assert!(analytics.as_array().unwrap().iter().any(|c| c["name"] == "Daily restaurants"), "its emails are a campaign's");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn run_now_answers_what_it_sent_and_the_duration_ends_an_automation() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Now", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 2, "campaignDurationMinutes": 60, "emailTemplateId": template, "isActive": false
        })).await;
        let run = format!("/api/automations/{}/run", automation["id"]);
        // Run Now runs a paused automation too (the user asked), and answers once its emails went out.
        let (status, result) = ada.post_json(&run, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{result}");
        assert_eq!((result["status"].as_str(), result["emailsSent"].as_i64(), result["emailsFailed"].as_i64()), (Some("completed"), Some(2), Some(0)));
        let report = result["emailsReport"].as_array().unwrap();
        assert_eq!(report.len(), 2);
        assert!(report.iter().all(|line| line["status"] == "sent" && line["businessName"].is_string() && line["email"].is_string()), "{result}");
        let (_, polled) = ada.get_json(&format!("/api/automation-runs/{}", result["runId"])).await;
        assert_eq!(polled["emailsSent"], 2);
        assert_eq!(active(&app, "eve").await.get_json(&format!("/api/automation-runs/{}", result["runId"])).await.0, StatusCode::NOT_FOUND);

        // A paused automation has no daily run.
        outreach_scheduler::tick(&app.ctx).await;
        let (_, runs) = ada.get_json("/api/automation-runs").await;
        assert_eq!(runs.as_array().unwrap().len(), 1);
        // Its hour is over: the next run ends it.
        app.clock.advance(61 * 60_000);
        let (_, result) = ada.post_json(&run, json!({})).await;
        assert_eq!((result["status"].as_str(), result["message"].as_str()), (Some("ended"), Some("Ended: its 60 minutes are over")));
        let (_, card) = ada.get_json("/api/automations").await;
        assert_eq!(card[0]["endedReason"], "Ended: its 60 minutes are over");
        // A longer duration gives it room again.
        let (status, revived) = ada.patch_json(&format!("/api/automations/{}", automation["id"]), json!({ "campaignDurationMinutes": 600, "isActive": true })).await;
        assert_eq!(status, StatusCode::OK, "{revived}");
        assert_eq!((revived["isActive"].as_bool(), revived["endedReason"].clone()), (Some(true), Value::Null));
        app.stop().await;
    })
    .await;
}

/// A run stopped after it wrote its own end but before its automation's (a panic, a worker killed) is done again
/// whole when the queue retries it: the automation ends with the run's reason, and Run Now never reports a run
/// ended whose automation does not say so yet.
#[tokio::test]
async fn a_run_stopped_while_it_records_its_end_is_retried_whole() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Now", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 2, "campaignDurationMinutes": 60, "emailTemplateId": template, "isActive": false
        })).await;
        let id = automation["id"].as_i64().unwrap();
        app.clock.advance(61 * 60_000);
        let run_id = outreach_core::automations::run_now(&app.ctx, id).await.unwrap().unwrap();
        outreach_core::platform::faults::arm(
            "automation-run-ended",
            &run_id.to_string(),
            outreach_core::platform::faults::Fault::Panic,
        );
        let ctx = app.ctx.clone();
        let stopped = tokio::spawn(async move { outreach_core::automations::run(&ctx, run_id).await }).await;
        assert!(stopped.is_err_and(|error| error.is_panic()), "the fault stops the run");
        // The queue's retry of the job.
        outreach_core::automations::run(&app.ctx, run_id).await.unwrap();
        let (_, run) = ada.get_json(&format!("/api/automation-runs/{run_id}")).await;
        assert_eq!(run["status"], "ended", "{run}");
        let (_, card) = ada.get_json("/api/automations").await;
        assert_eq!(
            (card[0]["isActive"].as_bool(), card[0]["endedReason"].as_str()),
            (Some(false), Some("Ended: its 60 minutes are over")),
            "{card}"
        );
        app.stop().await;
    })
    .await;
}

/// Issue 30.3: Run Now executes immediately (B §7): outside the campaign's sending window its emails go at once, and
/// it answers with them sent (it used to wait for the window and answer 202 after 30 s, "0 sent").
#[tokio::test]
async fn run_now_sends_at_once_outside_the_sending_window() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            // The test clock reads a Friday: this window is closed.
            settings.sending.default_window = "mon 03:00-03:01".into();
        })
        .await;
        outreach_core::discovery::directory::import_osm(&app.ctx.db, std::path::Path::new(EXTRACT), 1)
            .await
            .unwrap();
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Now, not Monday", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 2, "emailTemplateId": template, "isActive": false
        })).await;
        let (status, result) = ada.post_json(&format!("/api/automations/{}/run", automation["id"]), json!({})).await;
        assert_eq!((status, result["emailsSent"].as_i64()), (StatusCode::OK, Some(2)), "{result}");
        app.stop().await;
    })
    .await;
}

/// Issue 83.17: Run Now answers once its run has started its emails, with what went and what waits: a paced sender's
/// later emails do not hold the answer (it used to wait 30 s for them), and the card follows them.
#[tokio::test]
async fn run_now_with_a_paced_sender_answers_with_what_it_started() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start_with(test_db, |settings| {
            settings.sending.pacing = true;
            settings.sending.default_window = "mon-sun 00:00-24:00".into();
        })
        .await;
        outreach_core::discovery::directory::import_osm(&app.ctx.db, std::path::Path::new(EXTRACT), 1)
            .await
            .unwrap();
        let ada = ready_to_send(&app, "ada").await;
        // A cap of 144 a day over a window open all day: one email every ten minutes.
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none", "dailyCap": 144, "rampUp": false
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Paced cafés", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 3, "emailTemplateId": template, "isActive": false
        })).await;
        let started = std::time::Instant::now();
        let (status, result) = ada.post_json(&format!("/api/automations/{}/run", automation["id"]), json!({})).await;
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "answered after {:?}", started.elapsed());
        assert_eq!(
            (status, result["status"].as_str(), result["emailsSent"].as_i64(), result["emailsWaiting"].as_i64()),
            (StatusCode::ACCEPTED, Some("completed"), Some(1), Some(2)),
            "{result}"
        );
        let (_, card) = ada.get_json("/api/automations").await;
        assert_eq!((card[0]["emailsSent"].as_i64(), card[0]["emailsWaiting"].as_i64()), (Some(1), Some(2)), "{card}");
        app.stop().await;
    })
    .await;
}

/// Issue 30.3: "5 a day" holds across the day's runs: a Run Now after the day's number was emailed emails nobody more,
/// and the next day has its number again.
#[tokio::test]
async fn the_daily_number_holds_across_the_days_runs() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Two a day", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 2, "emailTemplateId": template
        })).await;
        let run = format!("/api/automations/{}/run", automation["id"]);
        let mut sent = Vec::new();
        for _ in 0..2 {
            let (status, result) = ada.post_json(&run, json!({})).await;
            assert_eq!(status, StatusCode::OK, "{result}");
            sent.push(result["emailsSent"].as_i64().unwrap());
        }
        assert_eq!(sent, [2, 0], "the day's two, then none");
        app.clock.advance(24 * 60 * 60_000);
        let (_, result) = ada.post_json(&run, json!({})).await;
        assert_eq!(result["emailsSent"], 2, "{result}");
        let (_, analytics) = ada.get_json(&format!("/api/automations/{}/analytics", automation["id"])).await;
        assert_eq!(analytics["emailsSent"], 4, "{analytics}");
        app.stop().await;
    })
    .await;
}

/// Issue 31.6: a run whose search is still running ends its job at once and holds no worker (it used to sleep in a
/// loop for up to two minutes); the search's end queues it again, and it emails what the search found.
#[tokio::test]
async fn a_run_waits_for_its_search_without_holding_a_worker() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Waits", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 2, "emailTemplateId": template, "isActive": false
        })).await;
        let run_id = outreach_core::automations::run_now(&app.ctx, automation["id"].as_i64().unwrap())
            .await
            .unwrap()
            .unwrap();
        // No chunk has run: the job ends with its run waiting for the search it started.
        let job = outreach_core::platform::jobs::RunAutomation { run_id };
        outreach_worker::handlers::run_automation(&app.ctx, &job).await.unwrap();
        let run = format!("/api/automation-runs/{run_id}");
        let (_, waiting) = ada.get_json(&run).await;
        assert_eq!(waiting["status"], "running", "{waiting}");
        let chunks = app.ctx.queue.unfinished_ids::<outreach_core::platform::jobs::RunSearchChunk>("search_id");
        assert_eq!(chunks.await.unwrap().len(), 1, "its search's first chunk is queued");
        // The chunks run, the search ends, and the run goes on by itself.
        idle(&app).await;
        let (_, done) = ada.get_json(&run).await;
        assert_eq!((done["status"].as_str(), done["emailsSent"].as_i64()), (Some("completed"), Some(2)), "{done}");
        app.stop().await;
    })
    .await;
}

/// Issue 29.9: Run Now pressed three times at once: each run reports only the emails it wrote.
#[tokio::test]
async fn concurrent_runs_report_only_their_own_emails() {
    each_backend(|test_db| async move {
        let app = with_directory(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Thrice", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1,
            "maxBusinessesPerDay": 3, "maxTotalEmails": 3, "emailTemplateId": template
        })).await;
        let run = format!("/api/automations/{}/run", automation["id"]);
        let (first, second, third) = tokio::join!(
            ada.post_json(&run, json!({})),
            ada.post_json(&run, json!({})),
            ada.post_json(&run, json!({}))
        );
        let mut reported = 0;
        let mut lines = Vec::new();
        let results = [first, second, third];
        for (status, result) in results.clone() {
            assert_eq!(status, StatusCode::OK, "{result}");
            reported += result["emailsSent"].as_i64().unwrap();
            lines.extend(result["emailsReport"].as_array().unwrap().iter().map(|line| line["email"].clone()));
        }
        let (_, analytics) = ada.get_json(&format!("/api/automations/{}/analytics", automation["id"])).await;
        assert_eq!(analytics["emailsSent"], 3, "{analytics}");
        assert_eq!(reported, 3, "the three runs together sent three emails: {results:?}");
        lines.sort_by_key(|email| email.to_string());
        lines.dedup();
        assert_eq!(lines.len(), 3, "no email in two reports");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_automation_test_writes_for_made_up_businesses_to_the_test_address_and_saves_nothing() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let template = template(&ada).await;
        let _workers = start_workers(&app);
        ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        let (_, automation) = ada.post_json("/api/automations", json!({
            "campaignName": "Tested", "businessType": "cafe", "geographicArea": "Oulu", "emailTemplateId": template
        })).await;
        for (body, message) in [
            (json!({ "testEmail": "me@", "automationId": automation["id"] }), "Please enter a valid email address"),
            (json!({ "testEmail": "me@test.example", "quantity": 6, "automationId": automation["id"] }), "Quantity must be between 1 and 5"),
            (json!({ "testEmail": "me@test.example", "confidenceThreshold": 1.5, "automationId": automation["id"] }), "Confidence threshold must be between 0 and 1"),
            (json!({ "testEmail": "me@test.example", "autoReplyDelayMinutes": 1441, "automationId": automation["id"] }), "Reply delay must be between 0 and 1440 minutes"),
            (json!({ "testEmail": "me@test.example", "autoReplyMaxPerDay": 0, "automationId": automation["id"] }), "Automatic answers a day must be between 1 and 100"),
            (json!({ "testEmail": "me@test.example" }), "Please select an email template"),
        ] {
            let (status, refused) = ada.post_json("/api/automations/test", body).await;
            assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)));
        }
        assert!(sink.messages().is_empty(), "nothing sent for bad requests");
        let campaign_path = format!("/api/campaigns/{}", automation["campaignId"]);
        let (_, before) = ada.get_json(&campaign_path).await;
        let (status, sent) = ada.post_json("/api/automations/test", json!({
            "testEmail": "me@test.example", "quantity": 2, "automationId": automation["id"], "confidenceThreshold": 0.8,
            "autoReplyDelayMinutes": 30, "requireHumanApproval": true, "autoReplyMaxPerDay": 5,
            "fromName": "Nordic Bakery", "replyToEmail": "sales@bakery.example",
            "signatureName": "Ada Baker", "signatureTitle": "Owner", "signatureCompany": "Nordic <Bakery>"
        })).await;
        assert_eq!(status, StatusCode::OK, "{sent}");
        assert_eq!(sent["sent"], 2);
        // B §9: mock businesses, of the automation's kind and area, never the businesses it would email.
        assert_eq!(sent["businesses"], json!(["Sample cafe 1 (made up for this test)", "Sample cafe 2 (made up for this test)"]));
        assert_eq!(
            sent["answers"],
            "With these settings, a reply read with 80% certainty or more is answered 30 minutes after it arrives, \
             each waits for your approval, at most 5 a day; a request to stop is never answered, and a reply from \
             anyone but the prospect waits for your approval."
        );
        let received: Vec<String> = sink.messages().iter().map(|m| m.replace("=\r\n", "")).collect();
        assert_eq!(received.len(), 2);
        for message in &received {
            assert!(message.contains("X-Rcpt-Args: <me@test.example>"), "{message}");
            assert!(message.contains("From: \"Nordic Bakery\" <ada@bakery.example>") || message.contains("From: Nordic Bakery <ada@bakery.example>"), "{message}");
            assert!(message.contains("Reply-To: sales@bakery.example"), "{message}");
            assert!(message.contains("Ada Baker<br>Owner<br>Nordic &lt;Bakery&gt;"), "{message}");
        }
        assert!(received.iter().any(|m| m.contains("Subject: Bread for Sample cafe 1 (made up for this test)")));
        // Issue 30.3: the test saves nothing to the live automation or its campaign.
        let (_, after) = ada.get_json(&campaign_path).await;
        assert_eq!(before, after);
        let (_, unchanged) = ada.get_json("/api/automations").await;
        assert_eq!(unchanged[0]["emailTemplateId"], template, "{unchanged}");
        let (_, settings_off) = ada.post_json("/api/automations/test", json!({
            "testEmail": "me@test.example", "automationId": automation["id"], "autoReplyEnabled": false
        })).await;
        assert_eq!(
            settings_off["answers"],
            "With these settings, replies are read and shown, and none is answered automatically."
        );
        app.stop().await;
    })
    .await;
}
