//! Analytics and contacts by the counting rules of B §4, kept with their owner.

use super::*;

#[tokio::test]
async fn analytics_and_contacts_count_by_the_rules_of_b4_and_stay_with_their_owner() {
    each_backend(|test_db| async move {
        let (signing, public) = webhook_keys(21);
        let app = TestApp::start_with(test_db, move |settings| {
            settings.sendgrid.webhook_public_key = public;
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let SentCampaign {
            campaign, outbox, ..
        } = sent_campaign(&ada, "Bakeries", 5).await;
        let id = campaign["id"].as_i64().unwrap();
        let message = |i: usize| {
            outbox
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()
                .clone()
        };
        let now = app.clock.now_ms() / 1000;
        // owner0 opens and clicks; owner1 bounces; owner2 reports spam; owner3 replies; owner4 is opened by hand.
        let body = json!([
            { "event": "delivered", "outreach_message": message(0)["messageId"], "timestamp": now },
            { "event": "open", "outreach_message": message(0)["messageId"], "timestamp": now + 60 },
            { "event": "open", "outreach_message": message(0)["messageId"], "timestamp": now + 120 },
            { "event": "click", "url": "https://bakery.example/menu", "outreach_message": message(0)["messageId"], "timestamp": now + 130 },
            { "event": "bounce", "type": "bounce", "reason": "550 5.1.1 unknown user", "outreach_message": message(1)["messageId"], "timestamp": now },
            { "event": "delivered", "outreach_message": message(2)["messageId"], "timestamp": now },
            { "event": "spamreport", "outreach_message": message(2)["messageId"], "timestamp": now + 300 }
        ])
        .to_string();
        assert_eq!(
            post_events(&app, &signing, now, &body).await.0,
            StatusCode::OK
        );
        let (status, _) = ada
            .post_json(
                &format!("/api/outbox/{}/reply", message(3)["id"]),
                json!({ "body": "Interested, call me" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ada
            .post_json(
                &format!("/api/emails/{}/mark-opened", message(4)["id"]),
                json!({}),
            )
            .await;
        assert_eq!(status, StatusCode::OK);

        // The counters agree with B §4's rules applied to the raw messages.
        let (_, sent) = ada.get_json("/api/emails/sent?limit=50").await;
        let sent = sent.as_array().unwrap();
        let count = |rule: &dyn Fn(&Value) -> bool| sent.iter().filter(|m| rule(m)).count() as i64;
        let by_rules = (
            count(&|m| {
                ["sent", "delivered", "opened", "replied"].contains(&m["status"].as_str().unwrap())
                    || !m["sentAt"].is_null()
            }),
            count(&|m| ["failed", "bounced"].contains(&m["status"].as_str().unwrap())),
            count(&|m| {
                !m["openedAt"].is_null()
                    || m["events"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|e| e["eventType"] == "open")
            }),
            count(&|m| !m["repliedAt"].is_null() || m["status"] == "replied"),
        );
        assert_eq!(by_rules, (5, 1, 2, 1), "{sent:?}");

        let (status, list) = ada.get_json("/api/analytics/campaigns").await;
        assert_eq!(status, StatusCode::OK);
        let card = &list[0];
        assert_eq!(card["id"], id);
        let summary = &card["summary"];
        assert_eq!(
            (
                summary["totalSent"].as_i64().unwrap(),
                summary["failed"].as_i64().unwrap(),
                summary["opened"].as_i64().unwrap(),
                summary["replied"].as_i64().unwrap()
            ),
            by_rules,
            "{summary}"
        );
        assert_eq!(
            (
                &summary["totalEmails"],
                &summary["delivered"],
                &summary["clicked"],
                &summary["bounced"],
                &summary["spamReported"]
            ),
            (&json!(5), &json!(2), &json!(1), &json!(1), &json!(1)),
            "{summary}"
        );
        // Rates are whole-number percentages of sent; opens count each time (two by owner0, one by hand).
        assert_eq!(
            (
                &summary["openRate"],
                &summary["clickRate"],
                &summary["bounceRate"],
                &summary["totalOpens"],
                &summary["totalClicks"]
            ),
            (&json!(40), &json!(20), &json!(20), &json!(3), &json!(1)),
            "{summary}"
        );
        assert_eq!(card["emails"].as_array().unwrap().len(), 5);
        assert_eq!(card["radiusKm"], 40, "25 miles is 40 km: {card}");

        // Details: every message with its engagement badge, clicks and bounce reason.
        let (status, details) = ada.get_json(&format!("/api/campaigns/{id}/details")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(details["summary"], *summary);
        assert_eq!(details["contactsTotal"], 5);
        let contact = |i: usize| {
            details["contacts"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["toEmail"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()
                .clone()
        };
        assert_eq!(
            (0..5)
                .map(|i| contact(i)["engagement"].clone())
                .collect::<Vec<_>>(),
            vec![
                json!("Clicked"),
                json!("Issues"),
                json!("Issues"),
                // The reply outranks B §4's list (it used to read 'Sent').
                json!("Replied"),
                json!("Opened")
            ]
        );
        assert_eq!(contact(0)["openCount"], 2);
        assert_eq!(contact(0)["clickCount"], 1);
        assert_eq!(
            contact(0)["clickedUrls"],
            json!(["https://bakery.example/menu"])
        );
        assert_eq!(contact(0)["businessName"], "Cafe 0");
        assert_eq!(contact(1)["bounceReason"], "550 5.1.1 unknown user");
        assert_eq!(contact(3)["replied"], true);
        let (_, page) = ada
            .get_json(&format!("/api/campaigns/{id}/details?limit=2&offset=4"))
            .await;
        assert_eq!(page["contacts"].as_array().unwrap().len(), 1);

        // The chart: today holds the sends and engagement.
        let (_, daily) = ada
            .get_json(&format!("/api/campaigns/{id}/daily?days=7"))
            .await;
        let days = daily["days"].as_array().unwrap();
        assert_eq!(days.len(), 7);
        let today = days.last().unwrap();
        assert_eq!(
            (
                &today["sent"],
                &today["opened"],
                &today["clicked"],
                &today["replied"]
            ),
            (&json!(5), &json!(2), &json!(1), &json!(1)),
            "{today}"
        );
        assert_eq!(days[0]["sent"], 0);
        let (_, all_days) = ada.get_json("/api/analytics/daily?days=7").await;
        assert_eq!(all_days["days"][6]["sent"], 5);

        // The email dialog's message, with its body.
        let (status, email) = ada
            .get_json(&format!("/api/emails/{}", message(0)["id"]))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert!(
            email["body"].as_str().unwrap().contains("Hello Cafe 0"),
            "{email}"
        );

        // Contacts: badges by B §4's precedence, stats, history and notes.
        let (_, contacts) = ada.get_json("/api/contacts/all").await;
        let badge = |i: usize| {
            contacts
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["email"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()["status"]
                .clone()
        };
        assert_eq!(
            (0..5).map(badge).collect::<Vec<_>>(),
            vec![
                json!("Opened"),
                json!("Bounced"),
                json!("Spam Report"),
                json!("Replied"),
                json!("Opened")
            ]
        );
        let (_, stats) = ada.get_json("/api/contacts/stats").await;
        assert_eq!(
            stats,
            json!({ "totalContacted": 5, "totalOpened": 2, "openRate": 40, "totalClicks": 1, "totalReplied": 1,
                "replyRate": 20, "totalBounced": 1, "totalSpamReports": 1 })
        );
        let (status, history) = ada
            .get_json("/api/contacts/history?email=OWNER3@cafe3.example")
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(history["messages"].as_array().unwrap().len(), 1);
        assert_eq!(history["received"][0]["kind"], "reply");
        assert_eq!(history["received"][0]["body"], "Interested, call me");
        let (status, refused) = ada.get_json("/api/contacts/history").await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Please enter a valid email address")
            )
        );
        let (status, refused) = ada
            .post_json(
                "/api/contacts/notes",
                json!({ "email": "owner3@cafe3.example", "body": "  " }),
            )
            .await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Note cannot be empty")
            )
        );
        let (status, _) = ada
            .post_json(
                "/api/contacts/notes",
                json!({ "email": "stranger@else.example", "body": "Hi" }),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, note) = ada
            .post_json(
                "/api/contacts/notes",
                json!({ "email": "owner3@cafe3.example", "body": " Call on Monday " }),
            )
            .await;
        assert_eq!(
            (status, &note["body"]),
            (StatusCode::CREATED, &json!("Call on Monday"))
        );
        let note_path = format!("/api/contacts/notes/{}", note["id"]);
        let (status, edited) = ada
            .put_json(&note_path, json!({ "body": "Called; meeting Friday" }))
            .await;
        assert_eq!(
            (status, &edited["body"]),
            (StatusCode::OK, &json!("Called; meeting Friday"))
        );

        // Another user sees and touches none of it.
        let bob = active(&app, "bob").await;
        for path in [
            format!("/api/campaigns/{id}/details"),
            format!("/api/campaigns/{id}/daily"),
            format!("/api/emails/{}", message(0)["id"]),
            "/api/contacts/history?email=owner3@cafe3.example".to_string(),
        ] {
            assert_eq!(bob.get_json(&path).await.0, StatusCode::NOT_FOUND, "{path}");
        }
        assert_eq!(bob.get_json("/api/analytics/campaigns").await.1, json!([]));
        assert_eq!(bob.get_json("/api/contacts/all").await.1, json!([]));
        assert_eq!(
            bob.get_json("/api/contacts/stats").await.1["totalContacted"],
            0
        );
        assert_eq!(
            bob.put_json(&note_path, json!({ "body": "mine now" }))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(bob.delete_json(&note_path).await.0, StatusCode::NOT_FOUND);
        let (_, history) = ada
            .get_json("/api/contacts/history?email=owner3@cafe3.example")
            .await;
        assert_eq!(history["notes"][0]["body"], "Called; meeting Friday");
        assert_eq!(ada.delete_json(&note_path).await.0, StatusCode::OK);
        app.stop().await;
    })
    .await;
}
