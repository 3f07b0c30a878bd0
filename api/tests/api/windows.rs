//! When mail goes out (issue 19): a campaign's sending window in each recipient's local time, per-mailbox pacing,
//! and AI-optimised follow-up timing, with a fixed clock. A job scheduled for later is run by moving the clock to its
//! time and handing it to the workers (`run_due_jobs`), so nothing sleeps.

use super::*;
use outreach_core::platform::clock::iso;

const HOUR_MS: i64 = 3_600_000;

/// The test clock starts on Friday 2027-01-15 08:00 UTC: 10:00 in Helsinki, 02:00 in Chicago.
const FRIDAY_8_UTC: i64 = 1_800_000_000_000;

/// Send jobs waiting for a later moment, as (run at in ms, message ids).
pub(super) async fn waiting_sends(app: &TestApp) -> Vec<(i64, Vec<i64>)> {
    let jobs = app
        .ctx
        .queue
        .list(
            Some(outreach_core::platform::queue::JobStatus::Pending),
            Some("SendCampaignEmail"),
            100,
        )
        .await
        .unwrap();
    let mut waiting = Vec::new();
    for job in jobs {
        let detail = app.ctx.queue.show(&job.id).await.unwrap().unwrap();
        let payload: Value = serde_json::from_str(detail.payload.as_deref().unwrap()).unwrap();
        let ids = payload["message_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_i64().unwrap())
            .collect();
        waiting.push((job.run_at.unwrap() * 1000, ids));
    }
    waiting.sort();
    waiting
}

/// Moves the clock to `at` and lets the workers run every send job due by then (their queue times are moved to
/// now, as the real clock would have reached them).
pub(super) async fn run_due_jobs(app: &TestApp, at: i64) {
    let now = app.clock.now_ms();
    assert!(at >= now, "the clock only moves forward");
    app.clock.advance(at - now);
    let jobs = app
        .ctx
        .queue
        .list(
            Some(outreach_core::platform::queue::JobStatus::Pending),
            Some("SendCampaignEmail"),
            100,
        )
        .await
        .unwrap();
    let real_now = outreach_core::platform::clock::SystemClock.now_ms();
    for job in jobs
        .iter()
        .filter(|job| job.run_at.unwrap_or(0) * 1000 <= at)
    {
        app.ctx.queue.defer(&job.id, real_now).await.unwrap();
    }
    outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
}

/// Imports businesses (name, email, city) and answers their ids in order.
pub(super) async fn import(browser: &Browser, rows: &[(&str, &str, &str)]) -> Vec<i64> {
    let mut csv = String::from("name,email,city\n");
    for (name, email, city) in rows {
        csv.push_str(&format!("{name},{email},{city}\n"));
    }
    let (status, imported) = browser
        .upload("/api/businesses/import", "leads.csv", csv.into_bytes())
        .await;
    assert_eq!(status, StatusCode::OK, "{imported}");
    imported["businesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect()
}

pub(super) async fn template(browser: &Browser) -> i64 {
    let (status, template) = browser.post_json("/api/email-templates", json!({
        "name": "Intro", "subject": "Bread for {{businessName}}", "objective": "Lead Generation", "tone": "friendly",
        "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
    })).await;
    assert_eq!(status, StatusCode::CREATED, "{template}");
    template["id"].as_i64().unwrap()
}

async fn statuses(app: &TestApp, ids: &[i64]) -> Vec<MessageStatus> {
    let mut statuses = Vec::new();
    for id in ids {
        statuses.push(
            app.ctx
                .db
                .sending()
                .load_message(*id)
                .await
                .unwrap()
                .unwrap()
                .status,
        );
    }
    statuses
}

/// The campaign's message ids by recipient address.
pub(super) async fn message_ids(app: &TestApp, campaign: i64, to: &[&str]) -> Vec<i64> {
    let sql = "select id, to_email from sent_emails where campaign_id = $1 and step = 0";
    let rows: Vec<(i64, String)> = match &app.ctx.db {
        outreach_core::Db::Postgres(pool) => sqlx::query_as(sql)
            .bind(campaign)
            .fetch_all(pool)
            .await
            .unwrap(),
        outreach_core::Db::Sqlite { readers, .. } => sqlx::query_as(sql)
            .bind(campaign)
            .fetch_all(readers)
            .await
            .unwrap(),
    };
    to.iter()
        .map(|address| rows.iter().find(|(_, email)| email == address).unwrap().0)
        .collect()
}

#[tokio::test]
async fn a_window_is_kept_in_each_recipients_local_time_and_refused_when_wrong() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            settings.sending.default_window = "mon-fri 08:00-18:00".into();
        })
        .await;
        let ada = active(&app, "ada").await;
        // A new campaign has the instance's default window, in the user's own time zone.
        let (status, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés", "timeZone": "Europe/Helsinki" })).await;
        assert_eq!(status, StatusCode::CREATED, "{campaign}");
        assert_eq!(campaign["sendingWindow"], json!({
            "days": ["mon", "tue", "wed", "thu", "fri"], "start": "08:00", "end": "18:00", "timeZone": "Europe/Helsinki"
        }));
        let path = format!("/api/campaigns/{}", campaign["id"]);
        for (window, message) in [
            (json!({ "days": [], "start": "08:00", "end": "18:00", "timeZone": "UTC" }), "Choose at least one day to send on"),
            (json!({ "days": ["mon"], "start": "18:00", "end": "08:00", "timeZone": "UTC" }), "The sending window must end after it starts"),
            (json!({ "days": ["mon"], "start": "8am", "end": "18:00", "timeZone": "UTC" }), "Times are written HH:MM, from 00:00 to 24:00"),
            (json!({ "days": ["mon"], "start": "08:00", "end": "18:00", "timeZone": "Mars/Olympus" }), "Unknown time zone: Mars/Olympus"),
        ] {
            let (status, refused) = ada.put_json(&path, json!({ "sendingWindow": window })).await;
            assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)));
        }
        let (_, unchanged) = ada.get_json(&path).await;
        assert_eq!(unchanged["sendingWindow"]["days"].as_array().unwrap().len(), 5, "a refused window changes nothing");
        let weekend = json!({ "days": ["sat", "sun"], "start": "10:00", "end": "24:00", "timeZone": "America/Chicago" });
        let (status, saved) = ada.put_json(&path, json!({ "sendingWindow": weekend })).await;
        assert_eq!((status, &saved["sendingWindow"]), (StatusCode::OK, &weekend));
        // Another user cannot read or change it.
        let eve = active(&app, "eve").await;
        let (status, _) = eve.put_json(&path, json!({ "sendingWindow": weekend })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_message_due_at_night_where_its_recipient_is_waits_for_their_morning() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let ids = import(&ada, &[
            ("Cafe Aalto", "aalto@cafe.example", "Helsinki"),
            ("Windy Diner", "windy@diner.example", "Chicago"),
            ("Nowhere Bar", "bar@nowhere.example", "Nowhere-upon-Nothing"),
        ]).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Mornings" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        // Weekdays 08:00-18:00; the campaign's own zone (for the bar, whose place is unknown) is Tokyo.
        let window = json!({ "days": ["mon", "tue", "wed", "thu", "fri"], "start": "08:00", "end": "18:00", "timeZone": "Asia/Tokyo" });
        let (status, _) = ada.put_json(&format!("/api/campaigns/{campaign_id}"), json!({ "sendingWindow": window })).await;
        assert_eq!(status, StatusCode::OK);
        // Issue 30.4: the pre-launch check says before the launch that Chicago's email waits for its morning.
        let (status, check) = ada.post_json("/api/campaigns/launch-check", json!({
            "campaignId": campaign_id, "templateId": template, "businessIds": ids
        })).await;
        assert_eq!(status, StatusCode::OK, "{check}");
        let window = check["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "sending_window").cloned();
        assert_eq!(
            window.as_ref().and_then(|f| f["message"].as_str()),
            Some("1 of 3 emails wait for the sending window, closed now where their recipients are: the first of them go out when it opens."),
            "{check}"
        );
        // Issue 83.1: the time as a time, for the screen to show in the user's own zone.
        assert_eq!(window.as_ref().unwrap()["at"], "2027-01-15T14:00:00.000Z", "{check}");
        assert_eq!(check["waitingForWindow"], 1, "{check}");
        assert_eq!(window.unwrap()["level"], "warn");
        let workers = start_workers(&app);
        let (status, launched) = ada.post_json("/api/campaigns/send", json!({
            "campaignId": campaign_id, "templateId": template, "businessIds": ids
        })).await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        // Issue 83.4: the launch says what waits for the window, and when it opens.
        assert_eq!(
            (launched["message"].as_str(), launched["windowOpensAt"].as_str()),
            (Some("3 emails queued: 2 are being sent now, and 1 waits for the sending window to open. You can launch another campaign anytime."),
             Some("2027-01-15T14:00:00.000Z")),
            "{launched}"
        );
        let messages = message_ids(&app, campaign_id, &["aalto@cafe.example", "windy@diner.example", "bar@nowhere.example"]).await;
        for _ in 0..200 {
            if statuses(&app, &messages).await == [MessageStatus::Sent, MessageStatus::Queued, MessageStatus::Sent]
                && waiting_sends(&app).await.len() == 1
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        workers.stop().await;
        // 10:00 in Helsinki: sent. 02:00 in Chicago: waits for 08:00 there (14:00 UTC). 17:00 on Friday in Tokyo:
        // sent too (inside the window).
        assert_eq!(statuses(&app, &messages).await, [MessageStatus::Sent, MessageStatus::Queued, MessageStatus::Sent]);
        let waiting = waiting_sends(&app).await;
        assert_eq!(waiting.len(), 1, "{waiting:?}");
        assert_eq!((iso(waiting[0].0), &waiting[0].1), ("2027-01-15T14:00:00.000Z".to_string(), &vec![messages[1]]));
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{campaign_id}/progress")).await;
        assert_eq!((progress["status"].as_str(), progress["progress"]["queued"].as_i64()), (Some("active"), Some(1)));
        // Issue 30.4: the progress says when the waiting mail goes: 08:00 in Chicago.
        assert_eq!(progress["nextSendAt"], "2027-01-15T14:00:00.000Z", "{progress}");
        // Issue 83.3: and what holds it.
        assert_eq!(progress["nextSendReason"], "window", "{progress}");
        // An hour before its morning nothing changes; at 08:00 in Chicago it goes, and the campaign completes.
        run_due_jobs(&app, FRIDAY_8_UTC + 5 * HOUR_MS).await;
        assert_eq!(statuses(&app, &messages[1..2]).await, [MessageStatus::Queued]);
        run_due_jobs(&app, FRIDAY_8_UTC + 6 * HOUR_MS).await;
        assert_eq!(statuses(&app, &messages).await, [MessageStatus::Sent; 3]);
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{campaign_id}/progress")).await;
        assert_eq!(progress["status"], "completed");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn each_mailbox_sends_at_its_pace_and_the_rest_waits_its_turn() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start_with(test_db, |settings| {
            settings.sending.pacing = true;
            settings.sending.min_gap_seconds = 20;
        })
        .await;
        let ada = ready_to_send(&app, "ada").await;
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none", "dailyCap": 144, "rampUp": false
        })).await;
        // A cap of 144 a day over a window open all day: one message every 10 minutes.
        assert_eq!(status, StatusCode::OK, "{saved}");
        let template = template(&ada).await;
        let ids = import(&ada, &[("One", "one@cafe.example", ""), ("Two", "two@cafe.example", ""), ("Three", "three@cafe.example", "")]).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Paced" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let workers = start_workers(&app);
        let (status, _) = ada.post_json("/api/campaigns/send", json!({ "campaignId": campaign_id, "templateId": template, "businessIds": ids })).await;
        assert_eq!(status, StatusCode::OK);
        let messages = message_ids(&app, campaign_id, &["one@cafe.example", "two@cafe.example", "three@cafe.example"]).await;
        for _ in 0..200 {
            if !waiting_sends(&app).await.is_empty() && statuses(&app, &messages).await.contains(&MessageStatus::Sent) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        workers.stop().await;
        let sent = |statuses: Vec<MessageStatus>| statuses.iter().filter(|s| **s == MessageStatus::Sent).count();
        assert_eq!(sent(statuses(&app, &messages).await), 1, "one message, not a burst");
        assert_eq!(sink.messages().len(), 1);
        // The rest waits ten minutes, plus at most a minute of jitter.
        let waiting = waiting_sends(&app).await;
        assert_eq!(waiting.len(), 1, "{waiting:?}");
        let next = waiting[0].0 - FRIDAY_8_UTC;
        assert!((600_000..=660_000).contains(&next), "{next}");
        assert_eq!(waiting[0].1.len(), 2);
        // Issue 83.3: the progress says the pace holds the rest, not the window.
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{campaign_id}/progress")).await;
        assert_eq!((progress["nextSendReason"].as_str(), progress["nextSendAt"].as_str().is_some()), (Some("pace"), true), "{progress}");
        run_due_jobs(&app, waiting[0].0).await;
        assert_eq!(sent(statuses(&app, &messages).await), 2);
        let last = waiting_sends(&app).await;
        assert_eq!(last.len(), 1);
        assert!(last[0].0 - waiting[0].0 >= 540_000, "the next gap is kept too");
        run_due_jobs(&app, last[0].0).await;
        assert_eq!(sent(statuses(&app, &messages).await), 3);
        assert_eq!(sink.messages().len(), 3, "each sent once");
        app.stop().await;
    })
    .await;
}

/// Runs the scheduler's minute (its follow-up job among others) at `at` and lets the workers send what it queued.
pub(super) async fn scheduler_at(app: &TestApp, at: i64) {
    app.clock.advance(at - app.clock.now_ms());
    outreach_scheduler::tick(&app.ctx).await;
    outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
}

#[tokio::test]
async fn follow_ups_wait_for_the_window_and_go_at_the_hour_their_recipients_read_mail() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template(&ada).await;
        let (status, _) = ada.put_json(&format!("/api/follow-up-templates/sequence/{template}"), json!([
            { "subject": "Checking in, {{businessName}}", "body": "<p>Any thoughts?</p>", "delayDays": 2 }
        ])).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ada.put_json(&format!("/api/email-templates/{template}/follow-up-timing"), json!({ "followUpTiming": "after_send" })).await;
        assert_eq!(status, StatusCode::OK);
        let ids = import(&ada, &[("Cafe Aalto", "aalto@cafe.example", "Helsinki"), ("Tea Room", "tea@room.example", "London")]).await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Timed" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let window = json!({ "days": ["mon", "tue", "wed", "thu", "fri"], "start": "08:00", "end": "18:00", "timeZone": "UTC" });
        let (status, saved) = ada.put_json(&format!("/api/campaigns/{campaign_id}"), json!({ "sendingWindow": window })).await;
        assert_eq!((status, saved["aiSettings"]["aiOptimisedFollowUpTiming"].as_bool()), (StatusCode::OK, Some(true)));
        let (status, launched) = ada.post_json("/api/campaigns/send", json!({ "campaignId": campaign_id, "templateId": template, "businessIds": ids })).await;
        assert_eq!((status, &launched["emailsSent"]), (StatusCode::OK, &json!(2)));
        outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(30)).await.unwrap();
        // The café opens the email at 14:30 its time (12:30 UTC); the tea room never opens it.
        let first = message_ids(&app, campaign_id, &["aalto@cafe.example"]).await[0];
        app.clock.advance(4 * HOUR_MS + 30 * 60_000);
        let (status, _) = ada.post_json(&format!("/api/emails/{first}/mark-opened"), json!({})).await;
        assert_eq!(status, StatusCode::OK);

        // Due on Sunday (two days after sending), outside the window: on Monday at 14:00 the café's time (12:00 UTC),
        // and for the tea room at the hour the campaign's prospects open mail, 14:00 in London (14:00 UTC).
        let (_, pending) = ada.get_json("/api/followup-cronjob/pending").await;
        let scheduled: Vec<(&str, &str, bool)> = pending.as_array().unwrap().iter()
            .map(|p| (p["recipient"].as_str().unwrap(), p["scheduledFor"].as_str().unwrap(), p["ready"].as_bool().unwrap()))
            .collect();
        assert_eq!(scheduled, [
            ("aalto@cafe.example", "2027-01-18T12:00:00.000Z", false),
            ("tea@room.example", "2027-01-18T14:00:00.000Z", false),
        ]);
        let follow_ups = || async {
            ada.get_json("/api/outbox").await.1.as_array().unwrap().iter()
                .filter(|m| m["subject"].as_str().unwrap().starts_with("Checking in"))
                .map(|m| m["toEmail"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        let monday = FRIDAY_8_UTC + 3 * DAY_MS;
        scheduler_at(&app, monday - 2 * 60 * 60_000).await;
        scheduler_at(&app, monday + 3 * HOUR_MS + 59 * 60_000).await;
        assert!(follow_ups().await.is_empty(), "nothing before its hour");
        scheduler_at(&app, monday + 4 * HOUR_MS).await;
        assert_eq!(follow_ups().await, ["aalto@cafe.example"]);
        scheduler_at(&app, monday + 6 * HOUR_MS).await;
        let mut sent = follow_ups().await;
        sent.sort();
        assert_eq!(sent, ["aalto@cafe.example", "tea@room.example"], "each once");

        app.stop().await;
    })
    .await;
}
