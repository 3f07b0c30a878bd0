//! Follow-ups that go out (issue 19): due a number of days after a person opened the message before, stopped by a
//! reply or an unsubscribe, none for a paused campaign, each sent once, threaded under the first email.

use super::*;

const DAY_MS: i64 = 86_400_000;

/// Runs the scheduler's tick (its follow-up job among others) and lets the workers send what it queued.
async fn follow_ups_run(app: &TestApp) {
    app.clock.advance(60_000);
    outreach_scheduler::tick(&app.ctx).await;
    outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
}

/// Launches and waits until every first email is sent (a campaign with follow-ups scheduled stays active).
async fn launch_and_send(browser: &Browser, body: Value) {
    let (status, launched) = browser.post_json("/api/campaigns/send", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    let path = format!("/api/campaigns/{}/progress", body["campaignId"]);
    for _ in 0..200 {
        let (_, progress) = browser.get_json(&path).await;
        if progress["progress"]["queued"] == 0 && progress["progress"]["sending"] == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the first emails were not sent");
}

/// A template with a two-step follow-up sequence (2 and then 3 days after an open).
async fn template_with_follow_ups(ada: &Browser) -> Value {
    let (status, template) = ada.post_json("/api/email-templates", json!({
        "name": "Intro", "subject": "Bread for {{businessName}}", "objective": "Lead Generation", "tone": "friendly",
        "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
    })).await;
    assert_eq!(status, StatusCode::CREATED, "{template}");
    let (status, sequence) = ada
        .put_json(
            &format!("/api/follow-up-templates/sequence/{}", template["id"]),
            json!([
                { "subject": "Checking in, {{businessName}}", "body": "<p>Any thoughts?</p>", "delayDays": 2 },
                { "subject": "Last note", "body": "<p>One last try.</p>", "delayDays": 3 }
            ]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{sequence}");
    template
}

#[tokio::test]
async fn follow_ups_go_out_after_an_open_threaded_once_and_stop_at_a_reply_or_an_unsubscribe() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let leads = "name,email\nOpens,opens@cafe.example\nReplies,replies@cafe.example\nSilent,silent@cafe.example\nLeaves,leaves@cafe.example\n";
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", leads.as_bytes().to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        html_and_tracking(&ada, &campaign).await;
        let launch = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids });
        let _workers = start_workers(&app);
        let (launched, _) = launch_and_finish(&ada, launch).await;
        assert_eq!(launched["emailsSent"], 4, "{launched}");
        drop(_workers);
        let outbox = || async { ada.get_json("/api/outbox").await.1.as_array().unwrap().clone() };
        let first = outbox().await;
        let id_of = |list: &[Value], to: &str, subject_start: &str| {
            list.iter()
                .find(|m| m["toEmail"] == to && m["subject"].as_str().unwrap().starts_with(subject_start))
                .map(|m| m["id"].as_i64().unwrap())
        };
        for to in ["opens@cafe.example", "replies@cafe.example", "leaves@cafe.example"] {
            let id = id_of(&first, to, "Bread").unwrap();
            let (status, _) = ada.post_json(&format!("/api/emails/{id}/mark-opened"), json!({})).await;
            assert_eq!(status, StatusCode::OK);
        }
        let (status, _) = ada
            .post_json(&format!("/api/outbox/{}/reply", id_of(&first, "replies@cafe.example", "Bread").unwrap()), json!({ "body": "Not now, thanks" }))
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ada.post_json("/api/unsubscribe", json!({ "email": "leaves@cafe.example" })).await;
        assert!(status.is_success(), "{status}");

        // A day after the opens nothing is due; two days after, only the prospect who opened and did not answer.
        app.clock.advance(DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(outbox().await.len(), 4);
        app.clock.advance(DAY_MS);
        follow_ups_run(&app).await;
        follow_ups_run(&app).await;
        let now = outbox().await;
        let follow_ups: Vec<&Value> = now.iter().filter(|m| m["subject"].as_str().unwrap().starts_with("Checking in")).collect();
        assert_eq!(follow_ups.len(), 1, "exactly one, once: {now:?}");
        assert_eq!((follow_ups[0]["toEmail"].as_str(), follow_ups[0]["subject"].as_str()), (Some("opens@cafe.example"), Some("Checking in, Opens")));
        assert!(follow_ups[0]["htmlBody"].as_str().unwrap().contains("Any thoughts?"));

        // The second follow-up waits for an open of the first, then its own delay; a paused campaign sends none.
        app.clock.advance(5 * DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(outbox().await.len(), 5, "follow-up 1 was not opened");
        let (status, _) = ada.post_json(&format!("/api/emails/{}/mark-opened", follow_ups[0]["id"]), json!({})).await;
        assert_eq!(status, StatusCode::OK);
        // (The campaign completed its sends; a pause is set directly, as the controls act on a sending campaign.)
        app.ctx.db.campaigns().set_campaign_status(campaign["id"].as_i64().unwrap(), outreach_core::campaigns::CampaignStatus::Paused, Some("Paused by you"), app.clock.now_ms()).await.unwrap();
        app.clock.advance(3 * DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(outbox().await.len(), 5, "paused");
        app.ctx.db.campaigns().set_campaign_status(campaign["id"].as_i64().unwrap(), outreach_core::campaigns::CampaignStatus::Active, None, app.clock.now_ms()).await.unwrap();
        follow_ups_run(&app).await;
        let last: Vec<Value> = outbox().await.into_iter().filter(|m| m["subject"] == "Last note").collect();
        assert_eq!(last.len(), 1, "the second follow-up once");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_follow_up_answers_the_first_email_in_its_thread() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let ada = ready_to_send(&app, "ada").await;
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let template = template_with_follow_ups(&ada).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nCafe Aalto,owner@aalto.example\n".to_vec())
            .await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let _workers = start_workers(&app);
        let launch = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [imported["businesses"][0]["id"]] });
        launch_and_finish(&ada, launch).await;
        drop(_workers);
        let (_, sent) = ada.get_json("/api/emails/sent").await;
        let first = sent["emails"].as_array().or(sent.as_array()).unwrap()[0].clone();
        ada.post_json(&format!("/api/emails/{}/mark-opened", first["id"]), json!({})).await;
        app.clock.advance(2 * DAY_MS);
        follow_ups_run(&app).await;
        let messages = sink.messages();
        assert_eq!(messages.len(), 2, "the first email and one follow-up");
        let parsed: Vec<_> = messages.iter().map(|raw| mail_parser::MessageParser::default().parse(raw.as_bytes()).unwrap()).collect();
        let original = parsed.iter().find(|m| m.subject() == Some("Bread for Cafe Aalto")).expect("the first email");
        let follow_up = parsed.iter().find(|m| m.subject() != Some("Bread for Cafe Aalto")).expect("the follow-up");
        let first_id = original.message_id().unwrap();
        assert_eq!(follow_up.subject(), Some("Checking in, Cafe Aalto"));
        assert_eq!(follow_up.in_reply_to().as_text(), Some(first_id));
        assert_eq!(follow_up.references().as_text(), Some(first_id));
        assert!(follow_up.header_raw("List-Unsubscribe-Post").is_some_and(|value| value.contains("One-Click")));
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{}/progress", campaign["id"])).await;
        assert_eq!(progress["status"], "completed", "{progress}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_manager_lists_pending_follow_ups_tests_one_and_sends_the_ready_ones() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nAalto,a@cafe.example\nKuu,k@cafe.example\nSilent,s@cafe.example\n".to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let _workers = start_workers(&app);
        launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        for to in ["a@cafe.example", "k@cafe.example"] {
            let id = outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == to).unwrap()["id"].clone();
            ada.post_json(&format!("/api/emails/{id}/mark-opened"), json!({})).await;
        }

        // Two are scheduled two days after their opens (the one never opened has nothing scheduled yet).
        let (status, pending) = ada.get_json("/api/followup-cronjob/pending").await;
        assert_eq!(status, StatusCode::OK);
        let pending = pending.as_array().unwrap().clone();
        assert_eq!(pending.len(), 2, "{pending:?}");
        let first = &pending[0];
        assert_eq!((first["sequenceNumber"].as_i64(), first["ready"].as_bool()), (Some(1), Some(false)));
        // Issue 33.4: as the prospect will read it, not the template's placeholder.
        assert_eq!(first["followUpTemplate"]["subject"], "Checking in, Kuu");
        assert_eq!(first["followUpTemplate"]["delayDays"], 2);
        assert!(first["originalEmail"]["subject"].as_str().unwrap().starts_with("Bread for "));
        // The fixed clock has not moved since the opens.
        let opened = app.clock.now_ms();
        let iso = outreach_core::platform::clock::iso;
        assert_eq!((first["originalEmail"]["openedAt"].as_str(), first["scheduledFor"].as_str()), (Some(iso(opened).as_str()), Some(iso(opened + 2 * DAY_MS).as_str())));
        let (_, items) = ada.get_json("/api/follow-ups/pending").await;
        assert_eq!(items.as_array().unwrap().iter().map(|item| item["status"].as_str().unwrap()).collect::<Vec<_>>(), ["scheduled", "scheduled"]);

        // A test goes to the address given, personalised for the prospect, and is not the prospect's follow-up.
        let test = json!({ "originalEmailId": first["originalEmail"]["id"], "followUpTemplateId": first["followUpTemplate"]["id"], "recipientEmail": "me@test.example" });
        let (status, tested) = ada.post_json("/api/followup-cronjob/test", test.clone()).await;
        assert_eq!((status, tested["success"].as_bool()), (StatusCode::OK, Some(true)), "{tested}");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let sent_test = outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == "me@test.example").unwrap().clone();
        assert_eq!((sent_test["isTest"].as_bool(), sent_test["subject"].as_str().unwrap().starts_with("Checking in, ")), (Some(true), true));
        assert_eq!(ada.get_json("/api/followup-cronjob/pending").await.1.as_array().unwrap().len(), 2);
        let eve = active(&app, "eve").await;
        assert_eq!(eve.post_json("/api/followup-cronjob/test", test).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.get_json("/api/followup-cronjob/pending").await.1, json!([]));
        let (status, _) = ada
            .post_json("/api/followup-cronjob/test", json!({ "originalEmailId": 1, "followUpTemplateId": 1, "recipientEmail": "nope" }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

        // Nothing is ready yet: Send All sends nothing. Two days on, it sends both, once.
        let (_, none) = ada.post_json("/api/followup-cronjob/send-all", json!({})).await;
        assert_eq!(none["processed"], 0, "{none}");
        app.clock.advance(2 * DAY_MS);
        let (status, all) = ada.post_json("/api/followup-cronjob/send-all", json!({})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(all["processed"], 2, "{all}");
        assert!(all["results"].as_array().unwrap().iter().all(|result| result["status"] == "sent" && result["sequenceNumber"] == 1), "{all}");
        assert_eq!(ada.get_json("/api/followup-cronjob/pending").await.1, json!([]));
        assert_eq!(ada.post_json("/api/followup-cronjob/send-all", json!({})).await.1["processed"], 0);

        // Follow-up analytics: each sent follow-up with the first email's subject, opened once someone opens it.
        let (_, sent) = ada.get_json("/api/followup-cronjob/analytics").await;
        let sent = sent.as_array().unwrap().clone();
        assert_eq!(sent.len(), 2);
        assert!(sent.iter().all(|item| item["opened"] == false && item["sequenceNumber"] == 1 && item["originalSubject"].as_str().unwrap().starts_with("Bread for ")));
        ada.post_json(&format!("/api/emails/{}/mark-opened", sent[0]["id"]), json!({})).await;
        let (_, sent) = ada.get_json("/api/followup-cronjob/analytics").await;
        assert_eq!(sent.as_array().unwrap().iter().filter(|item| item["opened"] == true).count(), 1);
        assert_eq!(eve.get_json("/api/followup-cronjob/analytics").await.1, json!([]));
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_sequence_stopped_by_hand_sends_nothing_more_and_every_contact_says_why_it_stopped() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nAalto,a@cafe.example\nKuu,k@cafe.example\n".to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let _workers = start_workers(&app);
        launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let id_of = |to: &str| outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == to).unwrap()["id"].as_i64().unwrap();
        for to in ["a@cafe.example", "k@cafe.example"] {
            ada.post_json(&format!("/api/emails/{}/mark-opened", id_of(to)), json!({})).await;
        }
        ada.post_json(&format!("/api/outbox/{}/reply", id_of("k@cafe.example")), json!({ "body": "Thanks, not now" })).await;

        // Another user cannot stop them; the owner can, once.
        let eve = active(&app, "eve").await;
        let stop = format!("/api/emails/{}/stop-follow-ups", id_of("a@cafe.example"));
        assert_eq!(eve.post_json(&stop, json!({})).await.0, StatusCode::NOT_FOUND);
        let (status, stopped) = ada.post_json(&stop, json!({})).await;
        assert_eq!((status, stopped["message"].as_str()), (StatusCode::OK, Some("Follow-ups stopped")));
        assert_eq!(ada.post_json(&stop, json!({})).await.0, StatusCode::OK);
        assert_eq!(ada.get_json("/api/followup-cronjob/pending").await.1, json!([]));

        app.clock.advance(3 * DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(ada.get_json("/api/outbox").await.1.as_array().unwrap().len(), 2, "no follow-up went out");
        let (_, details) = ada.get_json(&format!("/api/campaigns/{}/details", campaign["id"])).await;
        let reason = |to: &str| {
            details["contacts"].as_array().unwrap().iter().find(|c| c["toEmail"] == to).unwrap()["followUpsStopped"].clone()
        };
        assert_eq!((reason("a@cafe.example"), reason("k@cafe.example")), (json!("Stopped by you"), json!("Replied")), "{details}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_campaign_completes_only_when_no_follow_up_is_scheduled() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nAalto,a@cafe.example\nKuu,k@cafe.example\n".to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let _workers = start_workers(&app);
        launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        drop(_workers);
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let id_of = |to: &str| outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == to).unwrap()["id"].as_i64().unwrap();
        let status = || async { ada.get_json(&format!("/api/campaigns/{}/progress", campaign["id"])).await.1["status"].clone() };

        // Aalto opens now, Kuu a day later: Aalto's follow-up goes first, and the campaign stays active for Kuu's.
        ada.post_json(&format!("/api/emails/{}/mark-opened", id_of("a@cafe.example")), json!({})).await;
        app.clock.advance(DAY_MS);
        ada.post_json(&format!("/api/emails/{}/mark-opened", id_of("k@cafe.example")), json!({})).await;
        app.clock.advance(DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(ada.get_json("/api/outbox").await.1.as_array().unwrap().len(), 3);
        assert_eq!(status().await, "active", "Kuu's follow-up is still scheduled");
        // Issue 83.5: the progress says when it goes.
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{}/progress", campaign["id"])).await;
        let next = progress["nextFollowUpAt"].as_str().unwrap_or_else(|| panic!("{progress}"));
        assert!(next > outreach_core::platform::clock::iso(app.clock.now_ms() - DAY_MS).as_str(), "{progress}");
        app.clock.advance(DAY_MS);
        follow_ups_run(&app).await;
        assert_eq!(ada.get_json("/api/outbox").await.1.as_array().unwrap().len(), 4);
        assert_eq!(status().await, "completed", "nothing is scheduled: neither follow-up was opened");
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{}/progress", campaign["id"])).await;
        assert_eq!(progress["nextFollowUpAt"], Value::Null, "{progress}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn follow_ups_timed_from_sending_go_out_without_an_open_unless_there_is_a_reply() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let path = format!("/api/email-templates/{}/follow-up-timing", template["id"]);
        assert_eq!(ada.get_json("/api/email-templates").await.1[0]["followUpTiming"], "after_open");
        let (status, changed) = ada.put_json(&path, json!({ "followUpTiming": "after_send" })).await;
        assert_eq!((status, changed["followUpTiming"].as_str()), (StatusCode::OK, Some("after_send")), "{changed}");
        assert_eq!(ada.put_json(&path, json!({ "followUpTiming": "whenever" })).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(active(&app, "eve").await.put_json(&path, json!({ "followUpTiming": "after_open" })).await.0, StatusCode::NOT_FOUND);
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nSilent,s@cafe.example\nReplies,r@cafe.example\n".to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let _workers = start_workers(&app);
        launch_and_send(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        drop(_workers);
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let replied = outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == "r@cafe.example").unwrap()["id"].clone();
        ada.post_json(&format!("/api/outbox/{replied}/reply"), json!({ "body": "No thanks" })).await;
        // Scheduled from sending: listed with no open; the one who replied is not.
        let (_, pending) = ada.get_json("/api/followup-cronjob/pending").await;
        assert_eq!(pending.as_array().unwrap().len(), 1, "{pending}");
        assert_eq!((pending[0]["recipient"].as_str(), pending[0]["followUpTemplate"]["timing"].as_str()), (Some("s@cafe.example"), Some("after_send")));
        assert!(pending[0]["originalEmail"]["openedAt"].is_null());
        app.clock.advance(2 * DAY_MS);
        follow_ups_run(&app).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let follow_ups: Vec<&Value> = outbox.as_array().unwrap().iter().filter(|m| m["subject"].as_str().unwrap().starts_with("Checking in")).collect();
        assert_eq!(follow_ups.iter().map(|m| m["toEmail"].as_str().unwrap()).collect::<Vec<_>>(), ["s@cafe.example"]);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn machine_opens_and_automatic_answers_change_nothing_while_bounces_and_complaints_end_a_sequence()
 {
    each_backend(|test_db| async move {
        let (signing, public) = webhook_keys(23);
        let app = TestApp::start_with(test_db, move |settings| settings.sendgrid.webhook_public_key = public).await;
        let ada = active(&app, "ada").await;
        let template = template_with_follow_ups(&ada).await;
        let leads = "name,email\nProxy,proxy@cafe.example\nAway,away@cafe.example\nBounces,bounces@cafe.example\nComplains,complains@cafe.example\nReader,reader@cafe.example\n";
        let (_, imported) = ada.upload("/api/businesses/import", "leads.csv", leads.as_bytes().to_vec()).await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Rules" })).await;
        html_and_tracking(&ada, &campaign).await;
        let _workers = start_workers(&app);
        launch_and_send(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let message = |to: &str| outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == to).unwrap().clone();
        let pixel = |to: &str| {
            let html = message(to)["htmlBody"].as_str().unwrap().replace("&amp;", "&");
            let start = html.find(&format!("{}/t/o/", app.base)).unwrap();
            html[start..start + html[start..].find('"').unwrap()].to_string()
        };
        let http = reqwest::Client::new();
        // An image proxy fetches the proxy's pixel (a machine); the reader opens theirs in a mail client.
        app.clock.advance(3_600_000);
        http.get(pixel("proxy@cafe.example")).header("user-agent", "Mozilla/5.0 (via ggpht.com GoogleImageProxy)").send().await.unwrap();
        http.get(pixel("reader@cafe.example")).header("user-agent", "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15").send().await.unwrap();
        for _ in 0..200 {
            let (_, sent) = ada.get_json("/api/emails/sent?limit=50").await;
            if sent.as_array().unwrap().iter().any(|m| m["toEmail"] == "reader@cafe.example" && !m["openedAt"].is_null()) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        for to in ["away@cafe.example", "bounces@cafe.example", "complains@cafe.example"] {
            let (status, _) = ada.post_json(&format!("/api/emails/{}/mark-opened", message(to)["id"]), json!({})).await;
            assert_eq!(status, StatusCode::OK);
        }
        // An out-of-office answer is kept but is no reply; a hard bounce and a spam report arrive by SendGrid's webhook.
        let away = outreach_core::inbound::mail::read(mail(&[
            ("From", "away@cafe.example"), ("Subject", "Automatic reply: Bread"), ("Auto-Submitted", "auto-replied"),
            ("In-Reply-To", message("away@cafe.example")["messageId"].as_str().unwrap()),
        ], "Back on Monday.\r\n").as_bytes()).unwrap();
        let answered = app.ctx.db.inbound().find_sent_by_message_id(message("away@cafe.example")["messageId"].as_str().unwrap()).await.unwrap();
        outreach_core::inbound::replies::receive(&app.ctx, answered.as_ref().unwrap().user_id, answered.as_ref(), away, "imap").await.unwrap();
        let now = app.clock.now_ms() / 1000;
        let events = json!([
            { "event": "bounce", "type": "bounce", "reason": "550 5.1.1 unknown user", "outreach_message": message("bounces@cafe.example")["messageId"], "timestamp": now },
            { "event": "spamreport", "outreach_message": message("complains@cafe.example")["messageId"], "timestamp": now }
        ]).to_string();
        assert_eq!(post_events(&app, &signing, now, &events).await.0, StatusCode::OK);

        app.clock.advance(2 * DAY_MS);
        follow_ups_run(&app).await;
        let (_, now_outbox) = ada.get_json("/api/outbox").await;
        let mut followed: Vec<&str> = now_outbox.as_array().unwrap().iter()
            .filter(|m| m["subject"].as_str().unwrap().starts_with("Checking in"))
            .map(|m| m["toEmail"].as_str().unwrap())
            .collect();
        followed.sort();
        assert_eq!(followed, ["away@cafe.example", "reader@cafe.example"]);
        let (_, details) = ada.get_json(&format!("/api/campaigns/{}/details", campaign["id"])).await;
        let stopped = |to: &str| details["contacts"].as_array().unwrap().iter().find(|c| c["toEmail"] == to).unwrap()["followUpsStopped"].clone();
        assert_eq!(stopped("proxy@cafe.example"), Value::Null, "not stopped: never opened by a person");
        assert!(!stopped("bounces@cafe.example").is_null());
        assert!(!stopped("complains@cafe.example").is_null());
        app.stop().await;
    })
    .await;
}
