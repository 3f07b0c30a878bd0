//! Sending: campaigns through SMTP once per recipient, pausing and stopping, the local outbox, the sender name and
//! reply address a campaign keeps, and the pre-launch check. SendGrid senders, test emails and basic addresses are
//! in `senders.rs`.

use super::*;

/// Waits until the queue has nothing waiting or running.
async fn queue_drained(app: &TestApp) {
    for _ in 0..400 {
        let depth = app.ctx.queue.depth(app.ctx.now_ms()).await.unwrap();
        if depth.iter().all(|kind| kind.waiting == 0) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!(
        "the queue did not drain: {:?}",
        app.ctx.queue.depth(app.ctx.now_ms()).await
    );
}

/// The user's pause holds a campaign's queued messages until they resume it; stop skips what is left, with why.
#[tokio::test]
async fn a_paused_campaign_waits_for_the_user_and_a_stopped_one_skips_what_is_left() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let eve = active(&app, "eve").await;
        let (_, template) = ada
            .post_json("/api/email-templates", json!({ "name": "Intro", "subject": "Hello", "body": "<p>Hi</p>" }))
            .await;
        let leads = "name,email\nCafe Aalto,owner@aalto.example\nKahvila Kuu,kuu@kuu.example\nDeli,deli@deli.example\n";
        let (_, imported) = ada.upload("/api/businesses/import", "leads.csv", leads.as_bytes().to_vec()).await;
        let ids: Vec<Value> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].clone()).collect();
        let launch = |name: &'static str| {
            let ada = &ada;
            let template = &template;
            let ids = ids.clone();
            async move {
                let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": name })).await;
                let body = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids });
                let (status, launched) = ada.post_json("/api/campaigns/send", body).await;
                assert_eq!(status, StatusCode::OK, "{launched}");
                campaign["id"].as_i64().unwrap()
            }
        };
        // Launched with no worker running, then paused: the workers leave its messages queued.
        let paused = launch("Paused").await;
        let (status, answer) = ada.post_json(&format!("/api/campaigns/{paused}/pause"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(
            (answer["status"].as_str(), answer["statusReason"].as_str()),
            (Some("paused"), Some("Paused by you. Nothing more is sent until you resume the campaign."))
        );
        let (status, _) = eve.post_json(&format!("/api/campaigns/{paused}/pause"), json!({})).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another user's campaign");
        // A second campaign sends while the first waits; a third is stopped before any worker runs its jobs.
        let other = launch("Other").await;
        let third = launch("Third").await;
        let (status, answer) = ada.post_json(&format!("/api/campaigns/{third}/stop"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(
            (answer["status"].as_str(), answer["statusReason"].as_str(), answer["progress"]["skipped"].as_i64(), answer["progress"]["queued"].as_i64()),
            (Some("completed"), Some("Stopped by you: 3 emails were not sent."), Some(3), Some(0))
        );
        let (status, refused) = ada.post_json(&format!("/api/campaigns/{third}/stop"), json!({})).await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (StatusCode::CONFLICT, Some("This campaign has finished; there is nothing to stop"))
        );

        let _workers = start_workers(&app);
        queue_drained(&app).await;
        let progress = |id: i64| {
            let ada = &ada;
            async move { ada.get_json(&format!("/api/campaigns/{id}/progress")).await.1 }
        };
        let first = progress(paused).await;
        assert_eq!((first["status"].as_str(), first["progress"]["queued"].as_i64()), (Some("paused"), Some(3)), "{first}");
        assert_eq!(progress(other).await["progress"]["sent"].as_i64(), Some(3));
        let stopped = progress(third).await;
        assert_eq!((stopped["progress"]["sent"].as_i64(), stopped["progress"]["skipped"].as_i64()), (Some(0), Some(3)), "{stopped}");
        // Issue 83.6 (was 33.3): the stop sent nobody, so launched again the check does not call them emailed, and
        // the launch sends the emails the stop skipped, once.
        let again = json!({ "campaignId": third, "templateId": template["id"], "businessIds": ids });
        let (_, check) = ada.post_json("/api/campaigns/launch-check", again.clone()).await;
        assert_eq!((check["withEmail"].as_i64(), check["already"].as_i64(), check["recipients"].as_i64()), (Some(3), Some(0), Some(3)), "{check}");
        let (status, relaunched) = ada.post_json("/api/campaigns/send", again.clone()).await;
        assert_eq!((status, relaunched["emailsSent"].as_i64()), (StatusCode::OK, Some(3)), "{relaunched}");
        queue_drained(&app).await;
        let resent = progress(third).await;
        assert_eq!((resent["progress"]["sent"].as_i64(), resent["progress"]["skipped"].as_i64()), (Some(3), Some(0)), "{resent}");
        // Sent now: a third launch finds them emailed, and writes nothing.
        let (_, check) = ada.post_json("/api/campaigns/launch-check", again).await;
        assert_eq!((check["withEmail"].as_i64(), check["already"].as_i64()), (Some(0), Some(3)), "{check}");
        // A business without an address is written as skipped at once: its campaign counts it as skipped too.
        let (_, no_mail) = ada.upload("/api/businesses/import", "more.csv", b"name,email\nNo Mail Deli,\n".to_vec()).await;
        let (_, fourth) = ada.post_json("/api/campaigns", json!({ "name": "Fourth" })).await;
        let with_one = json!({ "campaignId": fourth["id"], "templateId": template["id"], "businessIds": [ids[0].clone(), no_mail["businesses"][0]["id"].clone()] });
        let (status, launched) = ada.post_json("/api/campaigns/send", with_one).await;
        assert_eq!((status, launched["skipped"].as_i64()), (StatusCode::OK, Some(1)), "{launched}");
        let (_, details) = ada.get_json(&format!("/api/campaigns/{}/details", fourth["id"])).await;
        assert_eq!((&details["summary"]["totalEmails"], &details["summary"]["skipped"]), (&json!(2), &json!(1)), "{details}");
        queue_drained(&app).await;

        // Resumed: everything goes out, once.
        let (status, answer) = ada.post_json(&format!("/api/campaigns/{paused}/resume"), json!({})).await;
        // Active again (or done already: the workers are quick).
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_ne!(answer["status"], "paused", "{answer}");
        queue_drained(&app).await;
        let done = progress(paused).await;
        assert_eq!((done["status"].as_str(), done["progress"]["sent"].as_i64()), (Some("completed"), Some(3)), "{done}");
        let (status, refused) = ada.post_json(&format!("/api/campaigns/{paused}/resume"), json!({})).await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (StatusCode::CONFLICT, Some("Only a paused campaign can be resumed"))
        );
    })
    .await;
}

/// Issue 32: a claim is a row of its own and only locks its message's row. A stop that comes while a claim is being
/// committed waits for it and leaves the claimed message to finish (the worker sends it); only the rest is skipped.
/// On PostgreSQL (SQLite has one writer at a time).
#[tokio::test]
async fn a_stop_while_a_message_is_being_claimed_leaves_it_to_finish() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let outreach_core::Db::Postgres(pool) = &app.ctx.db else {
            return app.stop().await;
        };
        let ada = active(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Claimed", 2).await;
        let (status, launched) = ada.post_json("/api/campaigns/send", ready.launch).await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        let campaign = ready.campaign["id"].as_i64().unwrap();
        let first: i64 =
            sqlx::query_scalar("select min(id) from sent_emails where campaign_id = $1")
                .bind(campaign)
                .fetch_one(pool)
                .await
                .unwrap();
        // A worker's claim of the first message, not yet committed.
        let mut claim = pool.begin().await.unwrap();
        let claimed: Vec<i64> = sqlx::query_scalar(
            outreach_core::platform::queries::OUTGOING_CLAIM_BATCH.sql(&app.ctx.db),
        )
        .bind(json!([first]).to_string())
        .bind(app.ctx.now_ms())
        .bind("lease")
        .fetch_all(&mut *claim)
        .await
        .unwrap();
        assert_eq!(claimed, [first]);
        let lock_waits = "select count(*) from pg_stat_activity where datname = current_database() \
            and wait_event_type = 'Lock'";
        // The claim commits once the stop waits for its message.
        let committed = async {
            let waited = tokio::time::timeout(std::time::Duration::from_secs(10), async {
                while sqlx::query_scalar::<_, i64>(lock_waits)
                    .fetch_one(pool)
                    .await
                    .unwrap()
                    == 0
                {
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
            })
            .await;
            claim.commit().await.unwrap();
            waited.is_ok()
        };
        let stop = format!("/api/campaigns/{campaign}/stop");
        let ((status, stopped), stop_waited) =
            tokio::join!(ada.post_json(&stop, json!({})), committed);
        assert!(stop_waited, "the stop never waited for the claimed message");
        assert_eq!(status, StatusCode::OK, "{stopped}");
        assert_eq!(
            (
                stopped["statusReason"].as_str(),
                stopped["progress"]["skipped"].as_i64(),
                stopped["progress"]["sending"].as_i64()
            ),
            (
                Some("Stopped by you: 1 emails were not sent."),
                Some(1),
                Some(1)
            ),
            "{stopped}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn campaigns_send_through_smtp_once_per_recipient_with_unsubscribe_headers() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;

        // A server that does not answer is refused at save, with the reason.
        let (status, refused) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": 9, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .starts_with("The SMTP server check failed"),
            "{refused}"
        );
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "emailReplyTo": "replies@bakery.example", "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(saved["config"]["isDefault"], true);
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!(configs.as_array().unwrap().len(), 1);
        assert!(configs[0].get("secret").is_none());

        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Cafés" }))
            .await;
        html_and_tracking(&ada, &campaign).await;
        let (status, template) = ada.post_json("/api/email-templates", json!({
            "name": "Intro", "subject": "Fresh bread for {{businessName}}", "objective": "Partnership Proposal",
            "tone": "friendly", "emailSignature": "Ada",
            "body": "<p>Hello [business name],</p><p>See <a href=\"https://bakery.example/menu\">our menu</a>.</p>"
        })).await;
        assert_eq!(status, StatusCode::CREATED, "{template}");
        let leads = "name,email,website\nCafé Aalto,owner@aalto.example,\nNo Mail Deli,,\nKahvila Kuu,kuu@kuu.example,\nKuu Annex,KUU@kuu.example,\n";
        let (_, imported) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                leads.as_bytes().to_vec(),
            )
            .await;
        let ids: Vec<i64> = imported["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].as_i64().unwrap())
            .collect();
        // Two cafés of one chain, one mailbox: it is emailed once, the second café skipped with the reason.
        assert_eq!(ids.len(), 4, "{imported}");

        let (status, profile) = ada
            .put_json(
                "/api/user/profile",
                json!({ "postalAddress": "Bakery Street 1, 00100 Helsinki" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{profile}");
        assert_eq!(
            ada.get_json("/api/user/profile").await.1["postalAddress"],
            "Bakery Street 1, 00100 Helsinki"
        );
        let body = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids });
        let (launched, progress) = launch_and_finish(&ada, body.clone()).await;
        assert_eq!(
            (
                launched["emailsSent"].as_i64(),
                launched["skipped"].as_i64()
            ),
            (Some(2), Some(2)),
            "{launched}"
        );
        assert_eq!(progress["status"], "completed", "{progress}");
        assert_eq!(
            (
                progress["progress"]["sent"].as_i64(),
                progress["progress"]["skipped"].as_i64()
            ),
            (Some(2), Some(2))
        );

        // Launching again sends nobody twice: with nobody new, the launch is refused and says why (issue 33.3).
        let (status, again) = ada.post_json("/api/campaigns/send", body).await;
        assert_eq!(
            (status, again["message"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("Every chosen business has this campaign's email already: there is nobody new to send to."))
        );
        let messages = sink.messages();
        let aalto: Vec<&String> = messages
            .iter()
            .filter(|m| m.contains("X-Rcpt-Args: <owner@aalto.example>"))
            .collect();
        assert_eq!(aalto.len(), 1, "exactly once");
        let kuu = messages.iter().filter(|m| m.contains("X-Rcpt-Args: <kuu@kuu.example>"));
        assert_eq!(kuu.count(), 1, "one mailbox, one email");
        let message = aalto[0];
        let parsed = mail_parser::MessageParser::default()
            .parse(message.as_bytes())
            .expect(message);
        assert_eq!(parsed.subject(), Some("Fresh bread for Café Aalto"));
        for expected in [
            "From: \"Ada Baker\" <ada@bakery.example>",
            "Reply-To: replies@bakery.example",
            "List-Unsubscribe: <http://127.0.0.1",
            "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
            "Content-Type: multipart/alternative",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Type: text/html; charset=utf-8",
        ] {
            assert!(message.contains(expected), "{expected} in\n{message}");
        }
        let message_id = message
            .lines()
            .find(|line| line.starts_with("Message-ID: <"))
            .expect(message);
        assert!(message_id.ends_with("@bakery.example>"), "{message_id}");
        let unfolded = message
            .replace("=\r\n", "")
            .replace("=\n", "")
            .replace("=3D", "=");
        assert!(unfolded.contains("/t/c/"), "tracked link in\n{unfolded}");
        assert!(unfolded.contains("/t/o/"), "open pixel in\n{unfolded}");
        assert!(
            unfolded.contains("Hello Caf"),
            "personalised in\n{unfolded}"
        );
        assert!(
            unfolded.contains("Bakery Street 1, 00100 Helsinki"),
            "postal address in\n{unfolded}"
        );
        assert!(!messages.iter().any(|m| m.contains("No Mail Deli")));

        // The sends count against the monthly quota.
        let (_, usage) = ada.get_json("/api/email-usage").await;
        assert_eq!(usage["count"], 2, "{usage}");

        let eve = active(&app, "eve").await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        assert_eq!(
            eve.get_json(&format!("/api/campaigns/{campaign_id}/progress"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        let config_id = saved["config"]["id"].as_i64().unwrap();
        assert_eq!(
            eve.delete_json(&format!("/api/user/email-configs/{config_id}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn without_a_sender_messages_stay_in_the_local_outbox() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, status) = ada.get_json("/api/user/email-config").await;
        assert_eq!(
            (
                status["emailConfigured"].as_bool(),
                status["emailProvider"].as_str()
            ),
            (Some(false), Some("outbox"))
        );
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Outbox" }))
            .await;
        html_and_tracking(&ada, &campaign).await;
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Hi", "subject": "Hi {{businessName}}", "objective": "Partnership Proposal", "tone": "friendly",
            "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
        })).await;
        let (_, imported) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                b"name,email\nSauna Oy,info@sauna.example\n".to_vec(),
            )
            .await;
        let id = imported["businesses"][0]["id"].as_i64().unwrap();
        // Issue 83.19 and 83.22: the spec's test-campaign body before any campaign has a template tests the newest
        // template, with the businesses the browser keeps as chosen; send-test-email sends tests only.
        let (status, tested) = ada
            .post_json("/api/test-campaign", json!({ "testEmail": "me@test.example", "businessIds": [],
                "selectedBusinesses": [{ "id": id, "name": "Sauna Oy" }], "campaignEmailSettings": { "fromName": "Ada" } }))
            .await;
        assert_eq!((status, tested["sent"].as_i64()), (StatusCode::OK, Some(1)), "{tested}");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!((outbox[0]["subject"].as_str(), outbox[0]["isTest"].as_bool()), (Some("Hi Sauna Oy"), Some(true)), "{outbox}");
        let (status, refused) = ada
            .post_json("/api/campaigns/send-test-email", json!({ "to": "me@test.example", "subject": "S", "body": "<p>B</p>", "isTest": false }))
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!(outbox.as_array().unwrap().len(), 1, "nothing written: {outbox}");
        let (launch, _) = launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [id] })).await;
        assert_eq!(launch["emailsSent"], 1);
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!(outbox.as_array().unwrap().len(), 2, "the test, then the campaign's: {outbox}");
        assert_eq!(outbox[0]["subject"], "Hi Sauna Oy");
        assert_eq!(outbox[0]["isTest"], false);
        assert!(outbox[0]["htmlBody"].as_str().unwrap().contains("/t/o/"), "a campaign made HTML with tracking carries the pixel");
        // A test of the same template is marked as one in the outbox and is not one of the template's sends.
        let (_, tested) = ada
            .post_json("/api/test-campaign", json!({ "testEmail": "me@test.example", "businessIds": [id], "templateId": template["id"] }))
            .await;
        assert_eq!(tested["sent"], 1, "{tested}");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!((outbox[0]["isTest"].as_bool(), outbox[1]["isTest"].as_bool()), (Some(true), Some(false)), "{outbox}");
        let (_, templates) = ada.get_json("/api/email-templates").await;
        assert_eq!(templates[0]["emailsSent"], 1, "the campaign's send only: {templates}");
        // Issue 33.9: the spec's bodies. A test of the campaign's chosen template without naming it, and a launch by
        // name that makes its campaign (a refused one leaves none behind).
        let (_, draft) = ada.post_json("/api/campaigns", json!({ "name": "Next" })).await;
        let (status, _) = ada.put_json(&format!("/api/campaigns/{}", draft["id"]), json!({ "templateId": template["id"] })).await;
        assert_eq!(status, StatusCode::OK);
        let (_, tested) = ada
            .post_json("/api/test-campaign", json!({ "testEmail": "me@test.example", "businessIds": [id], "selectedBusinesses": [], "campaignEmailSettings": {} }))
            .await;
        assert_eq!(tested["sent"], 1, "{tested}");
        let launch_named = |ids: Vec<i64>| json!({ "templateId": template["id"], "businessIds": ids, "name": "Spring round" });
        let (status, refused) = ada.post_json("/api/campaigns/launch", launch_named(vec![])).await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("No Recipients")));
        let (status, named) = ada.post_json("/api/campaigns/launch", launch_named(vec![id])).await;
        assert_eq!((status, named["emailsSent"].as_i64()), (StatusCode::OK, Some(1)), "{named}");
        let (_, campaigns) = ada.get_json("/api/campaigns").await;
        let spring = campaigns.as_array().unwrap().iter().filter(|c| c["name"] == "Spring round").count();
        assert_eq!(spring, 1, "{campaigns}");
        queue_drained(&app).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        // A new campaign sends plain text (issue 81).
        assert!(
            outbox[0]["textBody"]
                .as_str()
                .unwrap()
                .contains("Hello Sauna Oy")
        );
        // Issue 33.12: a campaign may send HTML without the open pixel.
        let (_, quiet) = ada.post_json("/api/campaigns", json!({ "name": "No pixel" })).await;
        let (status, saved) = ada.put_json(&format!("/api/campaigns/{}", quiet["id"]), json!({ "plainText": false, "trackOpens": false })).await;
        assert_eq!((status, saved["trackOpens"].as_bool()), (StatusCode::OK, Some(false)), "{saved}");
        launch_and_finish(&ada, json!({ "campaignId": quiet["id"], "templateId": template["id"], "businessIds": [id] })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let untracked = outbox.as_array().unwrap().iter().find(|m| m["campaignId"] == quiet["id"]).unwrap();
        assert!(!untracked["htmlBody"].as_str().unwrap().contains("/t/o/"), "{untracked}");
        assert!(untracked["htmlBody"].as_str().unwrap().contains("Hello Sauna Oy"));
        assert_eq!(
            active(&app, "eve").await.get_json("/api/outbox").await.1,
            json!([])
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_campaigns_sender_name_reply_to_and_ai_settings_are_kept_and_used() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "emailReplyTo": "replies@bakery.example", "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Cafés" }))
            .await;
        // A new campaign answers by itself only when the AI is 90% sure, after the user approved its first ten
        // answers, at most 20 a day, and times follow-ups by the AI (A §9, issue 20).
        assert_eq!(
            campaign["aiSettings"],
            json!({ "salesAggressiveness": "moderate", "responseStyle": "patient", "certaintyThreshold": "high",
                    "replyTiming": "business", "aiOptimisedFollowUpTiming": true, "humanApproval": "first_ten",
                    "autoReplyMaxPerDay": 20, "minConfidencePercent": null })
        );
        assert_eq!(campaign["replyTo"], Value::Null);
        let path = format!("/api/campaigns/{}", campaign["id"]);
        let settings = json!({ "salesAggressiveness": "assertive", "certaintyThreshold": "high", "replyTiming": "quick",
                               "aiOptimisedFollowUpTiming": false });
        let (status, changed) = ada
            .put_json(&path, json!({ "emailFromName": "Nordic Bakery", "replyTo": "sales@bakery.example", "aiSettings": settings }))
            .await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        // Bad values are refused and change nothing.
        for bad in [
            json!({ "replyTo": "sales@", "emailFromName": "Someone Else" }),
            json!({ "aiSettings": { "salesAggressiveness": "pushy", "certaintyThreshold": "high", "replyTiming": "quick", "aiOptimisedFollowUpTiming": true } }),
            json!({ "aiSettings": { "salesAggressiveness": "soft", "responseStyle": "eager", "certaintyThreshold": "high", "replyTiming": "quick", "aiOptimisedFollowUpTiming": true } }),
            json!({ "aiSettings": { "salesAggressiveness": "soft" } }),
            json!({ "aiSettings": { "salesAggressiveness": "soft", "certaintyThreshold": "high", "replyTiming": "quick", "aiOptimisedFollowUpTiming": true, "autoReplyMaxPerDay": 101 } }),
            json!({ "aiSettings": { "salesAggressiveness": "soft", "certaintyThreshold": "high", "replyTiming": "quick", "aiOptimisedFollowUpTiming": true, "humanApproval": "sometimes" } }),
        ] {
            let (status, body) = ada.put_json(&path, bad.clone()).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {body}");
        }
        let (_, stored) = ada.get_json(&path).await;
        assert_eq!(
            (stored["emailFromName"].as_str(), stored["replyTo"].as_str()),
            (Some("Nordic Bakery"), Some("sales@bakery.example"))
        );
        let mut expected = settings.clone();
        expected["responseStyle"] = json!("patient");
        expected["humanApproval"] = json!("first_ten");
        expected["autoReplyMaxPerDay"] = json!(20);
        expected["minConfidencePercent"] = Value::Null;
        assert_eq!(stored["aiSettings"], expected);
        assert_eq!(active(&app, "eve").await.put_json(&path, json!({ "replyTo": "eve@evil.example" })).await.0, StatusCode::NOT_FOUND);

        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Intro", "subject": "Bread for {{businessName}}", "objective": "Partnership Proposal",
            "tone": "friendly", "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
        })).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nCafe Aalto,owner@aalto.example\n".to_vec())
            .await;
        let id = imported["businesses"][0]["id"].as_i64().unwrap();
        let (launched, _) = launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [id] })).await;
        assert_eq!(launched["emailsSent"], 1, "{launched}");
        let messages = sink.messages();
        let message = messages.iter().find(|m| m.contains("owner@aalto.example")).expect("sent");
        for expected in ["From: \"Nordic Bakery\" <ada@bakery.example>", "Reply-To: sales@bakery.example"] {
            assert!(message.contains(expected), "{expected} in {message}");
        }
        // Issue 83.22: the spec's campaignEmailSettings on a launch name the sender, and the campaign keeps the name.
        let (_, second) = ada.post_json("/api/campaigns", json!({ "name": "Delis" })).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nDeli Kuu,kuu@deli.example\n".to_vec())
            .await;
        let deli = imported["businesses"][0]["id"].as_i64().unwrap();
        let settings = json!({ "fromName": "Ada from Nordic", "fromEmail": "ada@bakery.example" });
        launch_and_finish(&ada, json!({ "campaignId": second["id"], "templateId": template["id"], "businessIds": [deli], "campaignEmailSettings": settings })).await;
        let message = sink.messages().into_iter().find(|m| m.contains("kuu@deli.example")).expect("sent");
        assert!(message.contains("From: \"Ada from Nordic\" <ada@bakery.example>"), "{message}");
        assert_eq!(ada.get_json(&format!("/api/campaigns/{}", second["id"])).await.1["emailFromName"], "Ada from Nordic");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_pre_launch_check_blocks_and_warns_and_a_blocked_launch_changes_nothing() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let user = app.ctx.db.accounts().find_user_by_email("ada@example.org").await.unwrap().unwrap();
        // A template saved before variables were checked, with one personalisation does not know.
        let template_id = app.ctx.db.campaigns().insert_template(user.id, &outreach_core::campaigns::templates::TemplateContent {
            name: "Old".into(), subject: "Hi {{firstName}}".into(), body: "<p>Hello</p>".into(),
            objective: "Custom".into(), tone: "friendly".into(), email_signature: None,
        }, app.clock.now_ms()).await.unwrap();
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nCafe Aalto,owner@aalto.example\nCafe Kuu,kuu@kuu.example\nDeli,\n".to_vec())
            .await;
        let ids: Vec<i64> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].as_i64().unwrap()).collect();
        app.ctx.db.accounts().set_subscription("ada@example.org", &outreach_core::accounts::Grant::Premium { email_limit: 1 }
            .subscription(app.clock.now_ms(), &Default::default()), app.clock.now_ms()).await.unwrap();
        let request = json!({ "campaignId": campaign["id"], "templateId": template_id, "businessIds": ids });

        let (status, check) = ada.post_json("/api/campaigns/launch-check", request.clone()).await;
        assert_eq!(status, StatusCode::OK, "{check}");
        assert_eq!((check["recipients"].as_i64(), check["withEmail"].as_i64(), check["remainingThisMonth"].as_i64()), (Some(3), Some(2), Some(1)));
        assert_eq!(check["ready"], false);
        let findings: Vec<(&str, &str)> = check["findings"].as_array().unwrap().iter()
            .map(|finding| (finding["level"].as_str().unwrap(), finding["kind"].as_str().unwrap())).collect();
        // Loopback hosts are allowed for sending in these tests, so the unsubscribe link counts as reachable.
        assert_eq!(findings, [("block", "postal_address"), ("block", "unknown_variable"), ("warn", "monthly_quota"), ("warn", "sender_domain")], "{check}");
        assert_eq!(check["findings"][2]["message"], "2 emails to send, and 1 are left of this month's limit of 1: the campaign sends 1, then pauses until there is room.");

        // A blocked launch is refused with the first block, and nothing is queued.
        let (status, refused) = ada.post_json("/api/campaigns/send", request.clone()).await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, check["findings"][0]["message"].as_str()), "{refused}");
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{}/progress", campaign["id"])).await;
        assert_eq!((progress["status"].as_str(), progress["progress"]["total"].as_i64()), (Some("draft"), Some(0)), "{progress}");

        // With the postal address and a template that personalises, the warnings remain and the launch goes ahead.
        ada.put_json("/api/user/profile", json!({ "postalAddress": "Bakery Street 1, 00100 Helsinki" })).await;
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Intro", "subject": "Hi {{businessName}}", "objective": "Custom", "tone": "friendly", "emailSignature": "Ada", "body": "<p>Hello</p>"
        })).await;
        let request = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids });
        let (_, check) = ada.post_json("/api/campaigns/launch-check", request.clone()).await;
        assert_eq!(check["ready"], true, "{check}");
        assert_eq!(check["findings"].as_array().unwrap().len(), 2, "{check}");
        let (launched, progress) = launch_and_finish(&ada, request).await;
        assert_eq!((launched["emailsSent"].as_i64(), progress["status"].as_str()), (Some(2), Some("paused")), "{progress}");

        // Someone else's campaign or template is not checked.
        let eve = active(&app, "eve").await;
        let (status, _) = eve.post_json("/api/campaigns/launch-check", json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        app.stop().await;
    })
    .await;
}

/// Issue 80.2: emails in doubt (their worker stopped while handing them over) are sent again when their owner asks,
/// after the screen's warning; a finished campaign sends again. While a stopped worker's lease runs out, the progress
/// says when sending resumes.
#[tokio::test]
async fn emails_in_doubt_are_sent_again_on_request_and_the_progress_says_when_sending_resumes() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Doubt" })).await;
        let (_, template) = ada
            .post_json("/api/email-templates", json!({ "name": "Intro", "subject": "Hello", "body": "<p>Hi</p>" }))
            .await;
        let leads = "name,email\nCafé Aalto,owner@aalto.example\nKahvila Kuu,kuu@kuu.example\nDeli,deli@deli.example\n";
        let (_, imported) = ada.upload("/api/businesses/import", "leads.csv", leads.as_bytes().to_vec()).await;
        let ids: Vec<Value> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].clone()).collect();
        let body = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids });
        let (_, progress) = launch_and_finish(&ada, body).await;
        assert_eq!((progress["status"].as_str(), progress["progress"]["sent"].as_i64()), (Some("completed"), Some(3)));
        let id = campaign["id"].as_i64().unwrap();
        // Two were in doubt after a crash (as the recovery leaves them).
        outreach_core::on_db!(&app.ctx.db, pool => sqlx::query(
            "update sent_emails set status = 'failed', uncertain = true, error = 'may have arrived', sent_at = null
             where id in (select id from sent_emails where campaign_id = $1 order by id limit 2)")
            .bind(id).execute(pool).await.map(drop)).unwrap();
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!(progress["progress"]["uncertain"], 2, "{progress}");
        assert!(progress["resumingAt"].is_null());

        let eve = active(&app, "eve").await;
        let (status, _) = eve.post_json(&format!("/api/campaigns/{id}/send-uncertain-again"), Value::Null).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "another user's campaign");
        let (status, again) = ada.post_json(&format!("/api/campaigns/{id}/send-uncertain-again"), Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        for _ in 0..200 {
            let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
            if progress["progress"]["sent"] == 3 && progress["status"] == "completed" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!(
            (progress["progress"]["sent"].as_i64(), progress["progress"]["uncertain"].as_i64(), progress["status"].as_str()),
            (Some(3), Some(0), Some("completed")),
            "{progress}"
        );
        let (status, none) = ada.post_json(&format!("/api/campaigns/{id}/send-uncertain-again"), Value::Null).await;
        assert_eq!((status, none["message"].as_str()), (StatusCode::CONFLICT, Some("No email of this campaign is in doubt")));

        // A worker that stopped holding one of its emails (it missed its lease's renewals): the progress says when
        // sending resumes.
        let now = app.ctx.now_ms();
        let ends = now + 5_000;
        outreach_core::on_db!(&app.ctx.db, pool => async {
            sqlx::query("insert into send_leases (worker, expires_at) values ('stopped', $1)").bind(ends).execute(pool).await?;
            sqlx::query("insert into send_claims (message, claimed_by, claimed_at)
                         select id, 'stopped', $2 from sent_emails where campaign_id = $1 order by id limit 1")
                .bind(id).bind(now).execute(pool).await.map(drop)
        }.await).unwrap();
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!(progress["resumingAt"].as_str(), Some(outreach_core::platform::clock::iso(ends).as_str()), "{progress}");
        app.stop().await;
    })
    .await;
}
