//! Mailbox pools (issue 79): a campaign sends from several of its user's senders, each message from the one with the
//! most room left when it goes; new senders ramp up; a sender whose server is down, or whose mail bounces or draws a
//! complaint, is taken out with its reason and can be put back; a prospect's thread stays on its mailbox. Real SMTP
//! servers (Postfix's smtp-sink) on loopback, a fixed clock, and jobs run by moving it (`windows::run_due_jobs`).

use std::collections::HashMap;

use super::windows::{import, message_ids, run_due_jobs, scheduler_at, template, waiting_sends};
use super::*;
use outreach_core::inbound::feedback::Outcome;
use outreach_core::testing::SmtpSink;

/// The test clock's start (Friday 2027-01-15 08:00 UTC) and the next day's start, when daily caps renew.
const NOW: i64 = 1_800_000_000_000;
const TOMORROW: i64 = (NOW / DAY_MS + 1) * DAY_MS;

/// Saves an SMTP sender of Ada's on a loopback server with `extra` settings (a cap, a ramp-up); its id.
async fn smtp_sender(ada: &Browser, address: &str, port: u16, extra: Value) -> i64 {
    let mut body = json!({
        "emailProvider": "smtp", "emailSendFrom": address, "emailSendFromName": "Ada Baker",
        "smtpHost": "127.0.0.1", "smtpPort": port, "smtpSecurity": "none"
    });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let (status, saved) = ada.post_json("/api/user/email-config", body).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    saved["config"]["id"].as_i64().unwrap()
}

/// Recipients of the messages a sink received, each with how many it got.
fn recipients(sink: &SmtpSink) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    for message in sink.messages() {
        let to = message
            .lines()
            .find_map(|line| line.strip_prefix("X-Rcpt-Args: <"))
            .map(|rest| rest.trim_end_matches('>').to_string())
            .unwrap_or_default();
        *seen.entry(to).or_default() += 1;
    }
    seen
}

async fn progress_of(ada: &Browser, campaign: i64) -> Value {
    let (status, progress) = ada
        .get_json(&format!("/api/campaigns/{campaign}/progress"))
        .await;
    assert_eq!(status, StatusCode::OK, "{progress}");
    progress
}

/// The campaign's progress entry of one sender.
fn sender_of(progress: &Value, id: i64) -> Value {
    progress["senders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|sender| sender["emailConfigId"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("sender {id} in {progress}"))
}

fn cafes(count: usize) -> Vec<(String, String)> {
    (0..count)
        .map(|n| (format!("Cafe {n}"), format!("owner{n}@cafe{n}.example")))
        .collect()
}

async fn import_cafes(ada: &Browser, cafes: &[(String, String)]) -> Vec<i64> {
    let rows: Vec<(&str, &str, &str)> = cafes
        .iter()
        .map(|(name, email)| (name.as_str(), email.as_str(), ""))
        .collect();
    import(ada, &rows).await
}

async fn run_jobs(app: &TestApp) {
    outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
}

#[tokio::test]
async fn fifteen_go_out_from_two_capped_senders_while_a_down_one_is_taken_out_and_the_rest_wait_for_tomorrow()
 {
    each_backend(|test_db| async move {
        let (first, second, down) = (SmtpSink::start(&[]), SmtpSink::start(&[]), SmtpSink::start(&[]));
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let capped = json!({ "dailyCap": 5, "rampUp": false });
        let a = smtp_sender(&ada, "a@bakery.example", first.port, capped.clone()).await;
        let b = smtp_sender(&ada, "b@bakery.example", second.port, capped.clone()).await;
        let c = smtp_sender(&ada, "c@bakery.example", down.port, capped).await;
        // The third sender's server goes down after it was set up.
        drop(down);
        let template = template(&ada).await;
        let cafes = cafes(15);
        let ids = import_cafes(&ada, &cafes).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Pooled" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let launch = json!({ "campaignId": campaign_id, "templateId": template, "businessIds": ids, "emailConfigIds": [a, b, c] });

        // The check before the launch: three senders of 5 a day send 15 today.
        let (status, check) = ada.post_json("/api/campaigns/launch-check", launch.clone()).await;
        assert_eq!(status, StatusCode::OK, "{check}");
        assert_eq!((check["capacityPerDay"].as_i64(), check["daysToSend"].as_i64()), (Some(15), Some(1)), "{check}");
        let (status, launched) = ada.post_json("/api/campaigns/send", launch).await;
        assert_eq!((status, launched["emailsSent"].as_i64()), (StatusCode::OK, Some(15)), "{launched}");
        let (_, saved) = ada.get_json(&format!("/api/campaigns/{campaign_id}")).await;
        assert_eq!((saved["emailConfigIds"].clone(), saved["emailConfigId"].as_i64()), (json!([a, b, c]), Some(a)));

        run_jobs(&app).await;
        // The down sender is tried again every 20 s until its third failure takes it out.
        for _ in 0..4 {
            let due = waiting_sends(&app).await.into_iter().map(|(at, _)| at).filter(|at| *at < TOMORROW).min();
            let Some(at) = due else { break };
            run_due_jobs(&app, at).await;
        }
        let progress = progress_of(&ada, campaign_id).await;
        assert_eq!(
            (progress["progress"]["sent"].as_i64(), progress["progress"]["queued"].as_i64(), progress["progress"]["failed"].as_i64()),
            (Some(10), Some(5), Some(0)),
            "{progress}"
        );
        assert_eq!(progress["status"], "active", "waiting for tomorrow, not paused: {progress}");
        let (state_a, state_b, state_c) = (sender_of(&progress, a), sender_of(&progress, b), sender_of(&progress, c));
        assert_eq!((state_a["sent"].as_i64(), state_a["state"].as_str(), state_a["capToday"].as_i64()), (Some(5), Some("at_cap"), Some(5)), "{progress}");
        assert_eq!((state_b["sent"].as_i64(), state_b["state"].as_str()), (Some(5), Some("at_cap")), "{progress}");
        assert_eq!((state_c["sent"].as_i64(), state_c["state"].as_str()), (Some(0), Some("out")), "{progress}");
        assert!(state_c["reason"].as_str().unwrap().contains("could not be reached 3 times in a row"), "{state_c}");
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        let out = configs.as_array().unwrap().iter().find(|config| config["id"] == c).unwrap().clone();
        let out_at = outreach_core::platform::clock::parse_moment(out["outAt"].as_str().unwrap()).unwrap();
        assert!(out_at - NOW <= 120_000, "taken out within two minutes: {out}");
        assert_eq!(out["state"], "out");
        assert_eq!((recipients(&first).len(), recipients(&second).len()), (5, 5));

        // The rest go tomorrow, when the two working senders have room again; nobody gets two emails.
        let waiting = waiting_sends(&app).await;
        assert_eq!(waiting.iter().map(|(at, ids)| (*at, ids.len())).collect::<Vec<_>>(), vec![(TOMORROW, 5)], "{waiting:?}");
        run_due_jobs(&app, TOMORROW).await;
        let progress = progress_of(&ada, campaign_id).await;
        assert_eq!((progress["progress"]["sent"].as_i64(), progress["status"].as_str()), (Some(15), Some("completed")), "{progress}");
        let mut everyone = recipients(&first);
        for (to, count) in recipients(&second) {
            *everyone.entry(to).or_default() += count;
        }
        assert_eq!(everyone.len(), 15, "{everyone:?}");
        assert!(everyone.values().all(|count| *count == 1), "{everyone:?}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_pool_names_only_the_users_own_senders_and_an_empty_one_is_refused_with_nothing_written()
{
    each_backend(|test_db| async move {
        let sink = SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let eve = ready_to_send(&app, "eve").await;
        let a = smtp_sender(&ada, "a@bakery.example", sink.port, json!({})).await;
        let b = smtp_sender(&ada, "b@bakery.example", sink.port, json!({})).await;
        let eves = smtp_sender(&eve, "eve@evil.example", sink.port, json!({})).await;
        let template = template(&ada).await;
        let ids = import_cafes(&ada, &cafes(2)).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Mine" })).await;
        let id = campaign["id"].as_i64().unwrap();
        let path = format!("/api/campaigns/{id}");

        let (status, refused) = ada.put_json(&path, json!({ "emailConfigIds": [a, eves], "name": "Renamed" })).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{refused}");
        let (status, refused) = ada.put_json(&path, json!({ "emailConfigIds": [], "name": "Renamed" })).await;
        assert_eq!((status, refused["error"].as_str()), (StatusCode::BAD_REQUEST, Some("empty_pool")), "{refused}");
        assert!(refused["message"].as_str().unwrap().contains("at least one sender"), "{refused}");
        let (_, unchanged) = ada.get_json(&path).await;
        assert_eq!((unchanged["name"].as_str(), unchanged["emailConfigIds"].clone()), (Some("Mine"), json!([])));

        // Kept in the order picked, once each; the one-sender form follows the first.
        let (status, saved) = ada.put_json(&path, json!({ "emailConfigIds": [b, a, b] })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!((saved["emailConfigIds"].clone(), saved["emailConfigId"].as_i64()), (json!([b, a]), Some(b)));
        let (status, saved) = ada.put_json(&path, json!({ "emailConfigId": a })).await;
        assert_eq!((status, saved["emailConfigIds"].clone()), (StatusCode::OK, json!([a])));
        // Eve cannot put her sender in Ada's campaign, nor read or change Ada's.
        let (status, _) = eve.put_json(&path, json!({ "emailConfigIds": [eves] })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = eve.post_json(&format!("/api/user/email-configs/{a}/put-back"), json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = eve.put_json(&format!("/api/user/email-configs/{a}"), json!({ "dailyCap": 1 })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        // A launch naming no sender, or another user's, writes nothing.
        for (pool, expected) in [(json!([]), StatusCode::BAD_REQUEST), (json!([eves]), StatusCode::NOT_FOUND)] {
            let (status, refused) = ada.post_json("/api/campaigns/send", json!({
                "campaignId": id, "templateId": template, "businessIds": ids, "emailConfigIds": pool
            })).await;
            assert_eq!(status, expected, "{refused}");
        }
        let progress = progress_of(&ada, id).await;
        assert_eq!((progress["progress"]["total"].as_i64(), progress["status"].as_str()), (Some(0), Some("draft")), "{progress}");

        // Automations take a pool too, checked the same way.
        let automation = json!({ "campaignName": "Daily", "businessType": "cafe", "geographicArea": "Helsinki", "emailTemplateId": template });
        let mut with_eves = automation.clone();
        with_eves["emailConfigIds"] = json!([eves]);
        let (status, _) = ada.post_json("/api/automations", with_eves).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(ada.get_json("/api/automations").await.1.as_array().unwrap().is_empty());
        let mut pooled = automation;
        pooled["emailConfigIds"] = json!([a, b]);
        let (status, created) = ada.post_json("/api/automations", pooled).await;
        assert_eq!((status, created["emailConfigIds"].clone()), (StatusCode::CREATED, json!([a, b])), "{created}");
        let (status, edited) = ada.patch_json(&format!("/api/automations/{}", created["id"]), json!({ "emailConfigIds": [b] })).await;
        assert_eq!((status, edited["emailConfigIds"].clone()), (StatusCode::OK, json!([b])), "{edited}");
        let (status, _) = ada.patch_json(&format!("/api/automations/{}", created["id"]), json!({ "emailConfigIds": [] })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_prospects_follow_ups_stay_on_the_mailbox_of_their_thread_and_wait_when_it_leaves_the_pool()
 {
    each_backend(|test_db| async move {
        let (first, second) = (SmtpSink::start(&[]), SmtpSink::start(&[]));
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let a = smtp_sender(&ada, "a@bakery.example", first.port, json!({ "rampUp": false })).await;
        let b = smtp_sender(&ada, "b@bakery.example", second.port, json!({ "rampUp": false })).await;
        let template = template(&ada).await;
        let (status, _) = ada.put_json(&format!("/api/follow-up-templates/sequence/{template}"), json!([
            { "subject": "Checking in, {{businessName}}", "body": "<p>Any thoughts?</p>", "delayDays": 1 },
            { "subject": "Last note, {{businessName}}", "body": "<p>One more time.</p>", "delayDays": 1 }
        ])).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ada.put_json(&format!("/api/email-templates/{template}/follow-up-timing"), json!({ "followUpTiming": "after_send" })).await;
        assert_eq!(status, StatusCode::OK);
        let cafes = cafes(2);
        let ids = import_cafes(&ada, &cafes).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Threads" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let (status, _) = ada.post_json("/api/campaigns/send", json!({
            "campaignId": campaign_id, "templateId": template, "businessIds": ids, "emailConfigIds": [a, b]
        })).await;
        assert_eq!(status, StatusCode::OK);
        run_jobs(&app).await;
        // One each: the pool spreads them.
        let (on_a, on_b) = (recipients(&first), recipients(&second));
        assert_eq!((on_a.len(), on_b.len()), (1, 1), "{on_a:?} {on_b:?}");
        let prospect_on_a = on_a.keys().next().unwrap().clone();
        let first_email_on_a = message_ids(&app, campaign_id, &[&prospect_on_a]).await[0];

        // Sender a leaves the pool: its prospect's follow-up waits, and says why, rather than going from b.
        let (status, _) = ada.put_json(&format!("/api/campaigns/{campaign_id}"), json!({ "emailConfigIds": [b] })).await;
        assert_eq!(status, StatusCode::OK);
        scheduler_at(&app, NOW + DAY_MS + 60_000).await;
        assert_eq!(recipients(&second).values().sum::<usize>(), 2, "b's prospect got its follow-up from b");
        assert_eq!(recipients(&first).values().sum::<usize>(), 1, "a's prospect got nothing from a");
        let progress = progress_of(&ada, campaign_id).await;
        let left = sender_of(&progress, a);
        assert_eq!((left["inPool"].as_bool(), left["waiting"].as_i64(), left["sent"].as_i64()), (Some(false), Some(1), Some(1)), "{progress}");
        let waiting: Vec<i64> = app.ctx.db.sending().queued_message_ids(campaign_id).await.unwrap();
        assert_eq!(waiting.len(), 1);
        let held = app.ctx.db.sending().load_message(waiting[0]).await.unwrap().unwrap();
        assert_eq!(held.config_id, Some(a));
        let why: Option<String> = match &app.ctx.db {
            outreach_core::Db::Postgres(pool) => sqlx::query_scalar("select error from sent_emails where id = $1").bind(held.id).fetch_one(pool).await.unwrap(),
            outreach_core::Db::Sqlite { readers, .. } => sqlx::query_scalar("select error from sent_emails where id = $1").bind(held.id).fetch_one(readers).await.unwrap(),
        };
        assert!(why.as_deref().unwrap_or_default().contains("no longer one of this campaign's senders"), "{why:?}");
        // The scheduler's recovery does not keep giving it jobs while it waits.
        scheduler_at(&app, NOW + DAY_MS + 180_000).await;
        assert!(waiting_sends(&app).await.is_empty());

        // Back in the pool, it goes from a, in its thread.
        let (status, _) = ada.put_json(&format!("/api/campaigns/{campaign_id}"), json!({ "emailConfigIds": [b, a] })).await;
        assert_eq!(status, StatusCode::OK);
        run_jobs(&app).await;
        let from_a = first.messages();
        assert_eq!(from_a.len(), 2, "the follow-up went from a");
        let follow_up = from_a.iter().find(|message| message.contains("Subject: Checking in")).unwrap();
        assert!(follow_up.contains(&format!("X-Rcpt-Args: <{prospect_on_a}>")));
        let original = app.ctx.db.sending().load_message(first_email_on_a).await.unwrap().unwrap();
        assert_eq!(original.config_id, Some(a));
        assert!(follow_up.contains("In-Reply-To: <"), "threaded: {follow_up}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn bounces_and_complaints_take_a_sender_out_until_the_user_puts_it_back() {
    each_backend(|test_db| async move {
        let (first, second) = (SmtpSink::start(&[]), SmtpSink::start(&[]));
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let a = smtp_sender(&ada, "a@bakery.example", first.port, json!({ "rampUp": false, "dailyCap": 10 })).await;
        let b = smtp_sender(&ada, "b@bakery.example", second.port, json!({ "rampUp": false, "dailyCap": 10 })).await;
        let template = template(&ada).await;
        let cafes = cafes(20);
        let ids = import_cafes(&ada, &cafes).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Health" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let (status, _) = ada.post_json("/api/campaigns/send", json!({
            "campaignId": campaign_id, "templateId": template, "businessIds": ids, "emailConfigIds": [a, b]
        })).await;
        assert_eq!(status, StatusCode::OK);
        run_jobs(&app).await;
        let user = app.ctx.db.accounts().find_user_by_email("ada@example.org").await.unwrap().unwrap();
        let db = app.ctx.db.clone();
        let bounce = |to: String| {
            let db = db.clone();
            async move {
                let message = db.inbound().latest_sent_to(user.id, &to).await.unwrap().unwrap();
                let outcome = Outcome::Bounced { hard: true, reason: "550 5.1.1 unknown user".into() };
                db.inbound().apply_outcome(&message, &outcome, NOW + 1_000).await.unwrap();
            }
        };
        // Five of a's ten bounce: still in rotation; the sixth is more than 5% of its last 100.
        let on_a: Vec<String> = recipients(&first).into_keys().collect();
        for to in &on_a[..5] {
            bounce(to.clone()).await;
        }
        let state = |configs: &Value, id: i64| configs.as_array().unwrap().iter().find(|c| c["id"] == id).unwrap().clone();
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_ne!(state(&configs, a)["state"], "out", "{configs}");
        bounce(on_a[5].clone()).await;
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        let out = state(&configs, a);
        assert_eq!(out["state"], "out", "{out}");
        assert!(out["stateReason"].as_str().unwrap().contains("6 of its last 100 emails bounced"), "{out}");
        assert!(out["outAt"].is_string());

        // One complaint takes b out at once.
        let on_b: Vec<String> = recipients(&second).into_keys().collect();
        let message = app.ctx.db.inbound().latest_sent_to(user.id, &on_b[0]).await.unwrap().unwrap();
        app.ctx.db.inbound().apply_outcome(&message, &Outcome::Spam, NOW + 2_000).await.unwrap();
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert!(state(&configs, b)["stateReason"].as_str().unwrap().contains("reported its email as spam"), "{configs}");

        // With no sender left, a new launch pauses with each one's reason.
        let more = import_cafes(&ada, &[("Late".into(), "late@cafe.example".into())]).await;
        let (_, later) = ada.post_json("/api/campaigns", json!({ "name": "Later" })).await;
        let later_id = later["id"].as_i64().unwrap();
        let (status, check) = ada.post_json("/api/campaigns/launch-check", json!({
            "campaignId": later_id, "templateId": template, "businessIds": more, "emailConfigIds": [a, b]
        })).await;
        assert_eq!((status, check["ready"].as_bool()), (StatusCode::OK, Some(false)), "{check}");
        assert_eq!(check["findings"][0]["kind"], "no_sender", "{check}");

        // Put back: in rotation again, once.
        let (status, back) = ada.post_json(&format!("/api/user/email-configs/{b}/put-back"), json!({})).await;
        // Back in rotation (it sent its ten today, so it waits for tomorrow's room).
        assert_eq!(
            (status, back["config"]["state"].as_str(), back["config"]["outAt"].clone()),
            (StatusCode::OK, Some("at_cap"), Value::Null),
            "{back}"
        );
        let (status, again) = ada.post_json(&format!("/api/user/email-configs/{b}/put-back"), json!({})).await;
        assert_eq!((status, again["error"].as_str()), (StatusCode::CONFLICT, Some("not_out")), "{again}");
        let (status, check) = ada.post_json("/api/campaigns/launch-check", json!({
            "campaignId": later_id, "templateId": template, "businessIds": more, "emailConfigIds": [a, b]
        })).await;
        assert_eq!((status, check["ready"].as_bool()), (StatusCode::OK, Some(true)), "{check}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_new_sender_ramps_up_from_ten_a_day_and_says_when_it_reaches_its_cap() {
    each_backend(|test_db| async move {
        let sink = SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let id = smtp_sender(&ada, "a@bakery.example", sink.port, json!({ "dailyCap": 40, "rampStep": 10 })).await;
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        let sender = &configs[0];
        assert_eq!(
            (sender["rampUp"].as_bool(), sender["capToday"].as_i64(), sender["state"].as_str()),
            (Some(true), Some(10), Some("ramping")),
            "{sender}"
        );
        // 10, 20, 30, then 40: the full cap three days after today.
        assert_eq!(sender["fullCapOn"], iso_day(TOMORROW + 2 * DAY_MS), "{sender}");
        // A value out of range changes nothing.
        let (status, refused) = ada.put_json(&format!("/api/user/email-configs/{id}"), json!({ "rampStart": 0 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert!(refused["message"].as_str().unwrap().contains("Ramp-up start"), "{refused}");

        let template = template(&ada).await;
        let ids = import_cafes(&ada, &cafes(25)).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Warm" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let launch = json!({ "campaignId": campaign_id, "templateId": template, "businessIds": ids, "emailConfigId": id });
        let (_, check) = ada.post_json("/api/campaigns/launch-check", launch.clone()).await;
        // 10 today and 20 tomorrow: two days.
        assert_eq!((check["capacityPerDay"].as_i64(), check["daysToSend"].as_i64()), (Some(10), Some(2)), "{check}");
        let (status, _) = ada.post_json("/api/campaigns/send", launch).await;
        assert_eq!(status, StatusCode::OK);
        run_jobs(&app).await;
        assert_eq!(sink.messages().len(), 10);
        let progress = progress_of(&ada, campaign_id).await;
        assert_eq!(sender_of(&progress, id)["state"], "at_cap", "{progress}");

        // The next day it may send 20.
        run_due_jobs(&app, TOMORROW).await;
        assert_eq!(sink.messages().len(), 25);
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!((configs[0]["capToday"].as_i64(), configs[0]["sentToday"].as_i64()), (Some(20), Some(15)), "{configs}");
        // Turned off, the full cap at once.
        let (status, saved) = ada.put_json(&format!("/api/user/email-configs/{id}"), json!({ "rampUp": false })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!((saved["config"]["capToday"].as_i64(), saved["config"]["state"].as_str(), saved["config"]["fullCapOn"].clone()), (Some(40), Some("active"), Value::Null));
        app.stop().await;
    })
    .await;
}

/// The start of a UTC day, as the API writes times.
fn iso_day(day: i64) -> String {
    outreach_core::platform::clock::iso(day)
}
