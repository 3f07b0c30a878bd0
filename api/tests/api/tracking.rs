//! Tracking links, opens and clicks, provider events and replies applied to messages.

use super::*;

#[tokio::test]
async fn tracking_links_record_opens_and_clicks_and_one_click_unsubscribes_at_once() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Tracked" }))
            .await;
        html_and_tracking(&ada, &campaign).await;
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Menu", "subject": "Menu", "objective": "Partnership Proposal", "tone": "friendly", "emailSignature": "Ada",
            "body": "<p>See <a href=\"https://bakery.example/menu\">our menu</a></p>"
        })).await;
        let (_, imported) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                b"name,email\nSauna Oy,info@sauna.example\n".to_vec(),
            )
            .await;
        let business = imported["businesses"][0]["id"].as_i64().unwrap();
        launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [business] })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let html = outbox[0]["htmlBody"]
            .as_str()
            .unwrap()
            .replace("&amp;", "&");
        let link = |marker: &str| -> String {
            let start = html
                .find(marker)
                .unwrap_or_else(|| panic!("{marker} in {html}"));
            html[start..start + html[start..].find('"').unwrap()].to_string()
        };
        let (click, pixel, unsubscribe) = (
            link("http://127.0.0.1"),
            link(&format!("{}/t/o/", app.base)),
            link(&format!("{}/unsubscribe?", app.base)),
        );
        let click = if click.contains("/t/c/") {
            click
        } else {
            link(&format!("{}/t/c/", app.base))
        };
        let token = click
            .split("/t/c/")
            .nth(1)
            .unwrap()
            .split('?')
            .next()
            .unwrap()
            .to_string();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();

        app.clock.advance(60_000);
        let opened = http
            .get(&pixel)
            .header("user-agent", "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15")
            .send()
            .await
            .unwrap();
        assert_eq!(opened.status(), StatusCode::OK);
        assert_eq!(opened.headers()["content-type"], "image/gif");
        http.get(&pixel)
            .header("user-agent", "Mozilla/5.0 (via ggpht.com GoogleImageProxy)")
            .send()
            .await
            .unwrap();
        let clicked = http
            .get(&click)
            .header("user-agent", "Mozilla/5.0 (X11; Linux)")
            .send()
            .await
            .unwrap();
        assert!(clicked.status().is_redirection(), "{}", clicked.status());
        assert_eq!(clicked.headers()["location"], "https://bakery.example/menu");
        // Tampered: another address with the same signature, a forged signature, a forged pixel, a pixel without
        // its signature, and a forged signature after the real one (a repeated parameter counts by its last).
        let foreign = click.replace("bakery.example%2Fmenu", "evil.example%2F");
        assert_ne!(foreign, click);
        let (unsigned, _) = pixel.split_once('?').unwrap();
        for url in [
            foreign,
            format!("{}x", click.trim_end_matches(|c| c != '=')),
            pixel.replace("?s=", "?s=x"),
            unsigned.to_string(),
            format!("{pixel}&s=x"),
        ] {
            let refused = http.get(&url).send().await.unwrap();
            assert_eq!(refused.status(), StatusCode::NOT_FOUND, "{url}");
            assert!(refused.headers().get("location").is_none());
        }
        let mut events = Vec::new();
        for _ in 0..50 {
            events = app.ctx.db.tracking().events_of(&token).await.unwrap();
            if events.len() == 3 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        let seen: Vec<(&str, bool)> = events
            .iter()
            .map(|event| (event.kind.as_str(), event.is_machine))
            .collect();
        assert_eq!(seen, [("open", false), ("open", true), ("click", false)]);
        // The message itself counts as opened (the events' batch moves it right after storing them).
        let mut status = Value::Null;
        for _ in 0..50 {
            status = ada.get_json("/api/outbox").await.1[0]["status"].clone();
            if status == "opened" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert_eq!(status, "opened");

        // One-click: a form POST from the mail provider, no Origin, no confirmation.
        let forged = unsubscribe.replace("?t=", "?t=x");
        let refused = http
            .post(&forged)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), StatusCode::NOT_FOUND);
        assert!(
            app.ctx
                .db
                .sending().find_unsubscribe("info@sauna.example")
                .await
                .unwrap()
                .is_none()
        );
        let done = http
            .post(&unsubscribe)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), StatusCode::OK);
        assert_eq!(
            app.ctx
                .db
                .sending().find_unsubscribe("info@sauna.example")
                .await
                .unwrap()
                .unwrap()
                .source,
            "one_click"
        );
        // The same URL opened in a browser is the unsubscribe page.
        let page = http.get(&unsubscribe).send().await.unwrap();
        assert_eq!(page.status(), StatusCode::OK);
        assert!(
            page.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );

        // The next campaign to that address skips it.
        let (_, next) = ada
            .post_json("/api/campaigns", json!({ "name": "Again" }))
            .await;
        let (_, progress) = launch_and_finish(&ada, json!({ "campaignId": next["id"], "templateId": template["id"], "businessIds": [business] })).await;
        assert_eq!(
            (
                progress["progress"]["skipped"].as_i64(),
                progress["progress"]["sent"].as_i64()
            ),
            (Some(1), Some(0)),
            "{progress}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_opens_of_the_same_messages_is_counted_whole() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let SentCampaign {
            campaign, outbox, ..
        } = sent_campaign(&ada, "Burst", 3).await;
        let pixels: Vec<String> = outbox
            .as_array()
            .unwrap()
            .iter()
            .map(|message| {
                let html = message["htmlBody"].as_str().unwrap().replace("&amp;", "&");
                let start = html.find(&format!("{}/t/o/", app.base)).unwrap();
                html[start..start + html[start..].find('"').unwrap()].to_string()
            })
            .collect();
        // Past the machine window: every open is a person's.
        app.clock.advance(60_000);
        // Many requests at once for the same three messages: on PostgreSQL several batches are written at once,
        // and each must wait for the others' locks rather than deadlock or lose events.
        const OPENS: usize = 1_500;
        let http = reqwest::Client::new();
        let mut requests = tokio::task::JoinSet::new();
        for index in 0..OPENS {
            let (http, pixel) = (http.clone(), pixels[index % pixels.len()].clone());
            requests.spawn(async move {
                http.get(&pixel)
                    .header("user-agent", "Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15")
                    .send()
                    .await
                    .unwrap()
                    .status()
            });
            if requests.len() >= 64 {
                assert_eq!(requests.join_next().await.unwrap().unwrap(), StatusCode::OK);
            }
        }
        while let Some(status) = requests.join_next().await {
            assert_eq!(status.unwrap(), StatusCode::OK);
        }
        let id = campaign["id"].as_i64().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let today = loop {
            let (_, daily) = ada
                .get_json(&format!("/api/campaigns/{id}/daily?days=1"))
                .await;
            let today = daily["days"][0].clone();
            if today["humanOpens"] == OPENS || std::time::Instant::now() > deadline {
                break today;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        };
        assert_eq!(
            (
                &today["humanOpens"],
                &today["machineOpens"],
                &today["opened"]
            ),
            (&json!(OPENS), &json!(0), &json!(3)),
            "{today}"
        );
        for pixel in &pixels {
            let token = pixel
                .split("/t/o/")
                .nth(1)
                .unwrap()
                .split('.')
                .next()
                .unwrap();
            let events = app.ctx.db.tracking().events_of(token).await.unwrap();
            assert_eq!(events.len(), OPENS / 3, "{pixel}");
        }
    })
    .await;
}

#[tokio::test]
async fn provider_events_and_replies_change_messages_suppress_and_pause() {
    each_backend(|test_db| async move {
        let (signing, public) = webhook_keys(11);
        let (intruder, _) = webhook_keys(12);
        let app = TestApp::start_with(test_db, move |settings| {
            settings.sendgrid.webhook_public_key = public;
            settings.sendgrid.inbound_secret =
                outreach_core::platform::config::Secret::new("in-secret");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let SentCampaign {
            campaign,
            template,
            businesses,
            outbox,
        } = sent_campaign(&ada, "Feedback", 25).await;
        let message_of = |email: &str| {
            outbox
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == email)
                .unwrap()["messageId"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let (first, second) = (
            message_of("owner0@cafe0.example"),
            message_of("owner1@cafe1.example"),
        );
        let now = app.clock.now_ms() / 1000;
        let body = json!([
            { "event": "processed", "outreach_message": first },
            { "event": "delivered", "outreach_message": first, "timestamp": now },
            { "event": "open", "outreach_message": first, "timestamp": now + 5 },
            { "event": "bounce", "type": "bounce", "reason": "550 5.1.1 unknown user", "outreach_message": second, "timestamp": now },
            { "event": "delivered", "outreach_message": "not-ours@elsewhere.example" }
        ]).to_string();

        // Refused: another key, a tampered body, an old timestamp; nothing changes.
        assert_eq!(
            post_events(&app, &intruder, now, &body).await.0,
            StatusCode::UNAUTHORIZED
        );
        let signed_other = body.replace("550 5.1.1", "250 2.0.0");
        {
            use p256::ecdsa::signature::Signer;
            let signature: p256::ecdsa::Signature = signing.sign(format!("{now}{body}").as_bytes());
            let response = reqwest::Client::new()
                .post(format!("{}/api/webhooks/sendgrid/events", app.base))
                .header("content-type", "application/json")
                .header(
                    "X-Twilio-Email-Event-Webhook-Signature",
                    base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes()),
                )
                .header("X-Twilio-Email-Event-Webhook-Timestamp", now.to_string())
                .body(signed_other)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        }
        assert_eq!(
            post_events(&app, &signing, now - 3600, &body).await.0,
            StatusCode::UNAUTHORIZED
        );
        let (_, unchanged) = ada
            .get_json(&format!("/api/campaigns/{}/progress", campaign["id"]))
            .await;
        assert_eq!(unchanged["status"], "completed", "{unchanged}");

        // Accepted: the events land on their messages.
        let (status, answer) = post_events(&app, &signing, now, &body).await;
        assert_eq!(
            (
                status,
                answer["received"].as_i64(),
                answer["applied"].as_i64()
            ),
            (StatusCode::OK, Some(5), Some(3)),
            "{answer}"
        );
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let status_of = |email: &str| {
            outbox
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == email)
                .unwrap()["status"]
                .clone()
        };
        assert_eq!(status_of("owner0@cafe0.example"), "opened");
        assert_eq!(status_of("owner1@cafe1.example"), "bounced");
        // 1 hard bounce in the last 25 sends is 4%: below the 5% that pauses a campaign.
        let (_, progress) = ada
            .get_json(&format!("/api/campaigns/{}/progress", campaign["id"]))
            .await;
        assert_eq!(progress["status"], "completed");
        // The same request again is a replay (SendGrid signs each delivery anew).
        assert_eq!(
            post_events(&app, &signing, now, &body).await.0,
            StatusCode::UNAUTHORIZED
        );
        // So is the same request with its signature turned into the other valid one, (r, n - s).
        let (r, s) = event_signature(&signing, now, &body).split_scalars();
        let malleated =
            p256::ecdsa::Signature::from_scalars(r.to_bytes(), (-*s).to_bytes()).unwrap();
        assert_eq!(
            post_events_signed(&app, &malleated, now, &body).await.0,
            StatusCode::UNAUTHORIZED
        );

        // A second hard bounce: 2 of 25 is 8%, and the campaign pauses with the reason.
        let third = message_of("owner2@cafe2.example");
        let body =
            json!([{ "event": "dropped", "reason": "Bounced Address", "outreach_message": third }])
                .to_string();
        assert_eq!(
            post_events(&app, &signing, now + 1, &body).await.0,
            StatusCode::OK
        );
        let (_, progress) = ada
            .get_json(&format!("/api/campaigns/{}/progress", campaign["id"]))
            .await;
        assert_eq!(progress["status"], "paused", "{progress}");
        assert!(
            progress["statusReason"]
                .as_str()
                .unwrap()
                .contains("2 of the last 25 emails bounced"),
            "{progress}"
        );

        // Inbound Parse: a reply names its message; an out-of-office is kept but is no reply.
        let inbound = |raw: String| {
            let form = reqwest::multipart::Form::new()
                .text("to", "Ada <outbox@hello.127.0.0.1>")
                .text("email", raw);
            reqwest::Client::new()
                .post(format!(
                    "{}/api/webhooks/sendgrid/inbound/in-secret",
                    app.base
                ))
                .multipart(form)
                .send()
        };
        let wrong = reqwest::Client::new()
            .post(format!("{}/api/webhooks/sendgrid/inbound/guess", app.base))
            .multipart(reqwest::multipart::Form::new().text("email", "x"))
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), StatusCode::NOT_FOUND);
        let reply_to = message_of("owner3@cafe3.example");
        let reply = format!(
            "From: owner3@cafe3.example\r\nTo: outbox@hello.127.0.0.1\r\nSubject: Re: Hi Cafe 3\r\nIn-Reply-To: <{reply_to}>\r\n\r\nYes, send prices.\r\n"
        );
        let answer: Value = inbound(reply).await.unwrap().json().await.unwrap();
        assert_eq!(answer, json!({ "matched": true, "kind": "reply" }));
        let away = format!(
            "From: owner4@cafe4.example\r\nSubject: Out of Office: Hi Cafe 4\r\nIn-Reply-To: <{}>\r\n\r\nBack Monday\r\n",
            message_of("owner4@cafe4.example")
        );
        let answer: Value = inbound(away).await.unwrap().json().await.unwrap();
        assert_eq!(answer["kind"], "auto_reply");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let status_of = |email: &str| {
            outbox
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == email)
                .unwrap()["status"]
                .clone()
        };
        assert_eq!(status_of("owner3@cafe3.example"), "replied");
        assert_eq!(status_of("owner4@cafe4.example"), "sent");
        // The reply is read (asking for prices: a person answers); the out-of-office is not a response.
        let read = reading_of(&ada, "owner3@cafe3.example").await;
        assert_eq!(read["escalations"], json!(["price"]));
        let (_, analytics) = ada.get_json("/api/email-responses/analytics").await;
        assert!(!analytics["recentResponses"].as_array().unwrap().iter().any(|r| r["fromEmail"] == "owner4@cafe4.example"));

        // A reply typed in the app for an outbox message; another user cannot answer Ada's messages.
        let fifth = outbox
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["toEmail"] == "owner5@cafe5.example")
            .unwrap()["id"]
            .as_i64()
            .unwrap();
        let eve = active(&app, "eve").await;
        let (status, _) = eve
            .post_json(
                &format!("/api/outbox/{fifth}/reply"),
                json!({ "body": "Yes" }),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, empty) = ada
            .post_json(
                &format!("/api/outbox/{fifth}/reply"),
                json!({ "body": " " }),
            )
            .await;
        assert_eq!(
            (status, empty["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Please type the reply")
            )
        );
        let (status, _) = ada
            .post_json(
                &format!("/api/outbox/{fifth}/reply"),
                json!({ "body": "Interested, call me" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let status_of = |email: &str| {
            outbox
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == email)
                .unwrap()["status"]
                .clone()
        };
        assert_eq!(status_of("owner5@cafe5.example"), "replied");

        // The sent emails with their times and events; a manual open is recorded as such, once, by the owner only.
        let (status, sent) = ada.get_json("/api/emails/sent?limit=500").await;
        assert_eq!(status, StatusCode::OK);
        let of = |sent: &Value, email: &str| {
            sent.as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == email)
                .unwrap()
                .clone()
        };
        assert_eq!(sent.as_array().unwrap().len(), 25);
        let bounced = of(&sent, "owner1@cafe1.example");
        assert_eq!(
            (bounced["status"].as_str(), bounced["bounceReason"].as_str()),
            (Some("bounced"), Some("550 5.1.1 unknown user"))
        );
        assert!(is_time(&bounced["bouncedAt"]), "{bounced}");
        let opened = of(&sent, "owner0@cafe0.example");
        let kinds: Vec<&str> = opened["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["eventType"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["delivered", "open"]);
        assert!(is_time(&opened["deliveredAt"]) && is_time(&opened["openedAt"]));
        assert!(is_time(&of(&sent, "owner3@cafe3.example")["repliedAt"]));
        let plain = of(&sent, "owner6@cafe6.example");
        assert_eq!(
            (plain["status"].as_str(), plain["openedAt"].is_null()),
            (Some("sent"), true)
        );
        let id = plain["id"].as_i64().unwrap();
        let (status, _) = eve
            .post_json(&format!("/api/emails/{id}/mark-opened"), json!({}))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, marked) = ada
            .post_json(&format!("/api/emails/{id}/mark-opened"), json!({}))
            .await;
        assert_eq!(marked, json!({ "success": true, "alreadyOpened": false }));
        let (_, again) = ada
            .post_json(&format!("/api/emails/{id}/mark-opened"), json!({}))
            .await;
        assert_eq!(again["alreadyOpened"], true);
        let (_, page) = ada.get_json("/api/emails/sent?limit=500").await;
        let plain = of(&page, "owner6@cafe6.example");
        assert_eq!(plain["status"], "opened");
        assert_eq!(
            plain["events"],
            json!([{ "eventType": "open", "occurredAt": plain["openedAt"], "url": null, "machine": false, "manual": true }])
        );
        assert_eq!(eve.get_json("/api/emails/sent").await.1, json!([]));
        assert_eq!(
            ada.get_json("/api/emails/sent?limit=10&offset=20")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            5
        );

        // The bounced addresses are suppressed for Ada: a new campaign to the same businesses skips them.
        let first_three: Vec<Value> = businesses
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| {
                [
                    "owner0@cafe0.example",
                    "owner1@cafe1.example",
                    "owner2@cafe2.example",
                ]
                .contains(&b["email"].as_str().unwrap())
            })
            .map(|b| b["id"].clone())
            .collect();
        assert_eq!(first_three.len(), 3);
        let (_, again) = ada
            .post_json("/api/campaigns", json!({ "name": "Again" }))
            .await;
        let (_, progress) = launch_and_finish(
            &ada,
            json!({
                "campaignId": again["id"], "templateId": template["id"], "businessIds": first_three
            }),
        )
        .await;
        assert_eq!(
            (
                progress["progress"]["sent"].as_i64(),
                progress["progress"]["skipped"].as_i64()
            ),
            (Some(1), Some(2)),
            "{progress}"
        );
        app.stop().await;
    })
    .await;
}
