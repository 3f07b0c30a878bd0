//! Gmail senders: Google's consent, sending through the Gmail API, and reading replies after the second consent.

use super::*;

#[tokio::test]
async fn gmail_senders_connect_through_googles_consent_and_send_through_the_gmail_api() {
    each_backend(|test_db| async move {
        let gmail_api = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/gmail/v1/users/me/messages/send"))
            .and(header("authorization", "Bearer send-access"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({ "id": "gm-1", "threadId": "t-1" })),
            )
            .expect(1)
            .mount(&gmail_api)
            .await;
        let uri = gmail_api.uri();
        let app =
            TestApp::start_with(test_db, move |settings| settings.google.gmail_api_url = uri).await;
        mount_gmail_token_endpoint(&app).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let eve = active(&app, "eve").await;

        // Level 1 with the login address: nothing is saved yet, the browser goes to Google.
        let (status, started) = ada
            .post_json("/api/user/email-config", json!({
                "emailProvider": "gmail", "emailSendFrom": "ada@example.org", "emailSendFromName": "Ada Lovelace",
                "emailReplyTo": "", "useOAuth": true, "tier": "basic"
            }))
            .await;
        assert_eq!(status, StatusCode::OK, "{started}");
        assert_eq!(started["requiresOAuth"], true);
        let state = gmail_consent(
            &app,
            started["oauthUrl"].as_str().unwrap(),
            "ada@example.org",
            GMAIL_SEND,
        );
        assert_eq!(ada.get_json("/api/user/email-configs").await.1, json!([]));

        // Another account cannot finish Ada's flow (and the flow is used up); a forged state is refused too.
        let stolen = eve
            .get(&format!("/api/gmail/callback?code=gmail-ada&state={state}"))
            .await;
        assert_eq!(
            location(&stolen),
            "/gmail-oauth-result?success=false&error=callback_failed"
        );
        let (_, started) = ada
            .post_json(
                "/api/user/email-config",
                json!({
                    "emailProvider": "gmail", "emailSendFromName": "Ada Lovelace", "useOAuth": true
                }),
            )
            .await;
        let state = gmail_consent(
            &app,
            started["oauthUrl"].as_str().unwrap(),
            "ada@example.org",
            GMAIL_SEND,
        );
        let forged = ada
            .get("/api/gmail/callback?code=gmail-ada&state=forged")
            .await;
        assert_eq!(
            location(&forged),
            "/gmail-oauth-result?success=false&error=callback_failed"
        );
        let no_code = ada.get(&format!("/api/gmail/callback?state={state}")).await;
        assert_eq!(
            location(&no_code),
            "/gmail-oauth-result?success=false&error=no_auth_code"
        );
        let denied = ada
            .get(&format!(
                "/api/gmail/callback?error=access_denied&state={state}"
            ))
            .await;
        assert_eq!(
            location(&denied),
            "/gmail-oauth-result?success=false&error=access_denied"
        );

        // Consent given: the sender is saved with the refresh token encrypted, never shown.
        let done = ada
            .get(&format!("/api/gmail/callback?code=gmail-ada&state={state}"))
            .await;
        assert_eq!(
            location(&done),
            "/gmail-oauth-result?success=gmail_oauth_complete&email=ada%40example.org"
        );
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!(
            (
                configs[0]["provider"].as_str(),
                configs[0]["emailAddress"].as_str(),
                configs[0]["sendFromName"].as_str(),
                configs[0]["replyTo"].as_str(),
                configs[0]["dailyCap"].as_i64(),
                configs[0]["isDefault"].as_bool(),
            ),
            (
                Some("gmail"),
                Some("ada@example.org"),
                Some("Ada Lovelace"),
                Some("ada@example.org"),
                Some(2000),
                Some(true)
            ),
            "{configs}"
        );
        assert!(!configs.to_string().contains("refresh-gmail-ada"));
        // Stored, but only encrypted: the secret decrypts to the refresh token and does not contain it.
        let stored = app
            .ctx
            .db
            .sending().load_email_config(configs[0]["id"].as_i64().unwrap())
            .await
            .unwrap()
            .unwrap()
            .secret
            .expect("the refresh token is stored");
        assert!(!stored.contains("refresh-gmail-ada"));
        assert_eq!(
            outreach_core::platform::security::decrypt_secret(
                &app.ctx.settings.security.secret_key,
                &stored
            )
            .map(|secret| secret.expose().to_string()),
            Some("refresh-gmail-ada".to_string())
        );
        let (_, status) = ada.get_json("/api/user/email-config").await;
        assert_eq!(
            (status["tier"].as_str(), status["useOAuth"].as_bool()),
            (Some("basic"), Some(true))
        );

        // A different Gmail address: its own consent URL; a token without gmail.send saves nothing.
        let (status, bad) = ada
            .post_json(
                "/api/auth/gmail/additional",
                json!({ "email": "not-an-address" }),
            )
            .await;
        assert_eq!(
            (status, bad["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Please enter a valid email address")
            )
        );
        let (status, other) = ada
            .post_json(
                "/api/auth/gmail/additional",
                json!({ "email": "Ada.Work@Gmail.com" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{other}");
        let state = gmail_consent(
            &app,
            other["authUrl"].as_str().unwrap(),
            "ada.work@gmail.com",
            GMAIL_SEND,
        );
        let unticked = ada
            .get(&format!(
                "/api/gmail/callback?code=gmail-unticked&state={state}"
            ))
            .await;
        assert_eq!(
            location(&unticked),
            "/gmail-oauth-result?success=false&error=access_denied"
        );
        assert_eq!(
            ada.get_json("/api/user/email-configs")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            1
        );

        // A campaign goes out through the Gmail API with a refreshed access token.
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
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Gmail" }))
            .await;
        let (_, progress) = launch_and_finish(&ada, json!({
            "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [imported["businesses"][0]["id"]]
        })).await;
        assert_eq!(progress["progress"]["sent"], 1, "{progress}");
        let sent: Value =
            serde_json::from_slice(&gmail_api.received_requests().await.unwrap()[0].body).unwrap();
        let raw = String::from_utf8(
            URL_SAFE_NO_PAD
                .decode(sent["raw"].as_str().unwrap())
                .unwrap(),
        )
        .unwrap();
        assert!(
            raw.contains("From: \"Ada Lovelace\" <ada@example.org>")
                || raw.contains("From: Ada Lovelace <ada@example.org>"),
            "{raw}"
        );
        assert!(raw.contains("To: info@sauna.example"), "{raw}");
        assert!(raw.contains("Subject: Hi Sauna Oy"), "{raw}");

        // Google revoked the grant: a test campaign says Gmail needs connecting again instead of using the outbox.
        let config_id = configs[0]["id"].as_i64().unwrap();
        app.ctx
            .db
            .sending().deactivate_email_config(
                config_id,
                outreach_core::sending::mail_apis::GMAIL_REVOKED,
                app.clock.now_ms(),
            )
            .await
            .unwrap();
        let (status, test) = ada
            .post_json("/api/test-campaign", json!({
                "testEmail": "me@test.example", "businessIds": [imported["businesses"][0]["id"]], "templateId": template["id"]
            }))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (test["success"].as_bool(), test["errorType"].as_str()),
            (Some(false), Some("gmail_oauth_not_configured")),
            "{test}"
        );
        assert!(
            test["troubleshooting"]
                .as_str()
                .unwrap()
                .contains("connect this address again")
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn gmail_senders_read_replies_only_after_the_second_consent_and_never_twice() {
    each_backend(|test_db| async move {
        let gmail_api = MockServer::start().await;
        let reply = mail(
            &[
                ("From", "Owner 0 <owner0@cafe0.example>"),
                ("To", "ada@example.org"),
                ("Subject", "Re: Hi"),
            ],
            "Happy to talk.\r\n",
        );
        let newsletter = mail(
            &[
                ("From", "news@elsewhere.example"),
                ("To", "ada@example.org"),
                ("Subject", "News"),
            ],
            "Nothing to do with any campaign.\r\n",
        );
        let bearer = |token: &'static str| {
            move |request: &Request| {
                request
                    .headers
                    .get("authorization")
                    .and_then(|v| v.to_str().ok())
                    == Some(&*format!("Bearer {token}"))
            }
        };
        Mock::given(method("GET"))
            .and(path("/gmail/v1/users/me/profile"))
            .and(bearer("first-access"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "emailAddress": "ada@example.org", "messagesTotal": 12, "threadsTotal": 9, "historyId": "500"
            })))
            .expect(1)
            .mount(&gmail_api)
            .await;
        Mock::given(method("GET"))
            .and(path("/gmail/v1/users/me/history"))
            .and(bearer("read-access"))
            .and(|request: &Request| {
                let query: Vec<(String, String)> = request.url.query_pairs().into_owned().collect();
                query.contains(&("startHistoryId".into(), "500".into()))
                    && query.contains(&("historyTypes".into(), "messageAdded".into()))
                    && query.contains(&("labelId".into(), "INBOX".into()))
            })
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "history": [
                    { "id": "505", "messagesAdded": [{ "message": { "id": "m1", "threadId": "t1", "labelIds": ["INBOX"] } }] },
                    { "id": "507", "messagesAdded": [{ "message": { "id": "m2", "threadId": "t2", "labelIds": ["INBOX"] } }] }
                ],
                "historyId": "510"
            })))
            .expect(1)
            .mount(&gmail_api)
            .await;
        Mock::given(method("GET"))
            .and(path("/gmail/v1/users/me/history"))
            .and(|request: &Request| {
                request
                    .url
                    .query_pairs()
                    .any(|(key, value)| key == "startHistoryId" && value == "510")
            })
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "historyId": "510" })))
            .mount(&gmail_api)
            .await;
        for (id, raw) in [("m1", &reply), ("m2", &newsletter)] {
            Mock::given(method("GET"))
                .and(path(format!("/gmail/v1/users/me/messages/{id}")))
                .and(bearer("read-access"))
                .and(|request: &Request| {
                    request
                        .url
                        .query_pairs()
                        .any(|(k, v)| k == "format" && v == "raw")
                })
                // The newsletter comes slowly, so a run is open for a while after the reply has landed.
                .respond_with(
                    ResponseTemplate::new(200)
                        .set_body_json(json!({ "id": id, "raw": URL_SAFE_NO_PAD.encode(raw.as_bytes()) }))
                        .set_delay(std::time::Duration::from_millis(if id == "m2" { 500 } else { 0 })),
                )
                .expect(1)
                .mount(&gmail_api)
                .await;
        }
        let uri = gmail_api.uri();
        let app =
            TestApp::start_with(test_db, move |settings| settings.google.gmail_api_url = uri).await;
        mount_gmail_token_endpoint(&app).await;
        Mock::given(method("POST"))
            .and(path("/token"))
            .and(|request: &Request| {
                url::form_urlencoded::parse(&request.body)
                    .any(|(key, value)| key == "refresh_token" && value == "refresh-gmail-read")
            })
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "access_token": "read-access", "token_type": "Bearer", "expires_in": 3599
            })))
            .mount(&app.google)
            .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let eve = active(&app, "eve").await;
        sent_campaign(&ada, "Before Gmail", 2).await;

        // Connected for sending only: nothing is read.
        let (_, started) = ada
            .post_json("/api/user/email-config", json!({
                "emailProvider": "gmail", "emailSendFrom": "ada@example.org", "emailSendFromName": "Ada"
            }))
            .await;
        let state = gmail_consent(
            &app,
            started["oauthUrl"].as_str().unwrap(),
            "ada@example.org",
            GMAIL_SEND,
        );
        let done = ada
            .get(&format!("/api/gmail/callback?code=gmail-ada&state={state}"))
            .await;
        assert!(location(&done).contains("success=gmail_oauth_complete"));
        let config = |configs: &Value| {
            configs
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["provider"] == "gmail")
                .unwrap()
                .clone()
        };
        let gmail = config(&ada.get_json("/api/user/email-configs").await.1);
        assert_eq!(gmail["gmailRead"], false);
        let read_path = format!("/api/user/email-configs/{}/gmail-read", gmail["id"]);
        assert_eq!(
            eve.post_json(&read_path, json!({})).await.0,
            StatusCode::NOT_FOUND
        );

        // The second consent asks for both permissions; unticking reading is declined and changes nothing else.
        let (status, asked) = ada.post_json(&read_path, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{asked}");
        let state = gmail_consent(
            &app,
            asked["authUrl"].as_str().unwrap(),
            "ada@example.org",
            GMAIL_SEND_AND_READ,
        );
        let declined = ada
            .get(&format!(
                "/api/gmail/callback?code=gmail-readless&state={state}"
            ))
            .await;
        assert_eq!(
            location(&declined),
            "/gmail-oauth-result?success=false&error=access_denied"
        );
        let gmail = config(&ada.get_json("/api/user/email-configs").await.1);
        assert_eq!(
            (&gmail["gmailRead"], &gmail["isActive"]),
            (&json!(false), &json!(true))
        );
        assert_eq!(
            outreach_core::inbound::replies::ingest_mailbox(
                &app.ctx,
                gmail["id"].as_i64().unwrap()
            )
            .await
            .unwrap()
            .read,
            0
        );

        let (_, asked) = ada.post_json(&read_path, json!({})).await;
        let state = gmail_consent(
            &app,
            asked["authUrl"].as_str().unwrap(),
            "ada@example.org",
            GMAIL_SEND_AND_READ,
        );
        let granted = ada
            .get(&format!(
                "/api/gmail/callback?code=gmail-read&state={state}"
            ))
            .await;
        assert!(
            location(&granted).contains("success=gmail_oauth_complete"),
            "{}",
            location(&granted)
        );
        assert_eq!(
            config(&ada.get_json("/api/user/email-configs").await.1)["gmailRead"],
            true
        );

        // The scheduler's run reads what arrived after the grant: the reply lands, the newsletter is left alone.
        outreach_scheduler::tick(&app.ctx).await;
        workers_idle(&app).await;
        let gmail = config(&ada.get_json("/api/user/email-configs").await.1);
        assert!(
            is_time(&gmail["repliesCheckedAt"]) && gmail["repliesError"].is_null(),
            "{gmail}"
        );
        let (_, history) = ada
            .get_json("/api/contacts/history?email=owner0@cafe0.example")
            .await;
        assert_eq!(
            history["received"].as_array().unwrap().len(),
            1,
            "{history}"
        );
        assert_eq!(
            (
                &history["received"][0]["kind"],
                &history["received"][0]["source"]
            ),
            (&json!("reply"), &json!("gmail"))
        );
        assert_eq!(history["messages"][0]["status"], "replied");
        // The reply is read like any other (a ClassifyReply job).
        let read = reading_of(&ada, "owner0@cafe0.example").await;
        assert_eq!(read["classifier"], "offline");

        // The next run starts from the history id it reached: the messages are not fetched again (expect(1)).
        let run = outreach_core::inbound::replies::ingest_mailbox(
            &app.ctx,
            gmail["id"].as_i64().unwrap(),
        )
        .await
        .unwrap();
        assert_eq!(run.read, 0);
        app.stop().await;
    })
    .await;
}
