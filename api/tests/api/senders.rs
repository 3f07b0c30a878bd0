//! Senders and test sends: branded SendGrid senders checked, used and turned off when their key is refused, test
//! emails to the test address, and basic addresses on the instance's sending domain.

use super::*;

#[tokio::test]
async fn branded_sendgrid_senders_are_checked_used_and_turned_off_when_the_key_is_refused() {
    each_backend(|test_db| async move {
        let sendgrid = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/v3/scopes"))
            .and(header("authorization", "Bearer SG.good"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({ "scopes": ["mail.send"] })),
            )
            .mount(&sendgrid)
            .await;
        Mock::given(method("GET"))
            .and(path("/v3/scopes"))
            .respond_with(
                ResponseTemplate::new(401)
                    .set_body_json(json!({ "errors": [{ "message": "authorization required" }] })),
            )
            .mount(&sendgrid)
            .await;
        Mock::given(method("POST"))
            .and(path("/v3/mail/send"))
            .and(header("authorization", "Bearer SG.good"))
            .respond_with(ResponseTemplate::new(202).insert_header("X-Message-Id", "sg-1"))
            .up_to_n_times(1)
            .mount(&sendgrid)
            .await;
        Mock::given(method("POST")).and(path("/v3/mail/send"))
            .respond_with(ResponseTemplate::new(401).set_body_json(json!({ "errors": [{ "message": "The provided authorization grant is invalid, expired, or revoked" }] })))
            .mount(&sendgrid).await;
        let uri = sendgrid.uri();
        // The brand's domain has SPF and SendGrid's DKIM keys but no DMARC record yet.
        let dns = fake_dns(vec![
            (
                "bakery.example",
                DnsAnswer::Txt(vec!["v=spf1 include:sendgrid.net ~all"]),
            ),
            (
                "s1._domainkey.bakery.example",
                DnsAnswer::Cname("s1.domainkey.u7.wl7.sendgrid.net."),
            ),
            (
                "s2._domainkey.bakery.example",
                DnsAnswer::Cname("s2.domainkey.u7.wl7.sendgrid.net."),
            ),
        ])
        .await;
        let app = TestApp::start_with(test_db, move |settings| {
            settings.sendgrid.api_url = uri;
            settings.crawler.dns_servers = vec![dns.to_string()];
        })
        .await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let (status, nothing) = ada
            .post_json("/api/user/verify-email-config", json!({}))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{nothing}");
        let form = |key: &str| {
            json!({
                "emailProvider": "sendgrid", "tier": "advanced", "emailSendFrom": "hello@bakery.example", "emailSendFromName": "Ada",
                "businessName": "Nordic Bakery", "sendgridApiKey": key, "customDomain": "bakery.example"
            })
        };
        let (status, refused) = ada
            .post_json("/api/user/email-config", form("SG.bad"))
            .await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("sendgrid_key_refused")
            ),
            "{refused}"
        );
        let (status, saved) = ada
            .post_json("/api/user/email-config", form("SG.good"))
            .await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(
            (
                saved["config"]["provider"].as_str(),
                saved["config"]["sendFromName"].as_str()
            ),
            (Some("sendgrid-custom"), Some("Nordic Bakery"))
        );
        // The spec's call has no body: the default sender's domain is checked and what is missing is named.
        let verify = ada
            .send(ada.http.post(ada.url("/api/user/verify-email-config")))
            .await;
        assert_eq!(verify.status(), StatusCode::OK);
        let verify: Value = verify.json().await.unwrap();
        assert_eq!(
            (
                verify["verified"].as_bool(),
                verify["domain"].as_str(),
                verify["missing"].clone()
            ),
            (Some(false), Some("bakery.example"), json!(["DMARC"])),
            "{verify}"
        );
        assert_eq!(
            verify["checks"][1]["record"],
            "s1.domainkey.u7.wl7.sendgrid.net."
        );
        assert!(
            verify["checks"][2]["detail"]
                .as_str()
                .unwrap()
                .contains("_dmarc")
        );
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!(
            (
                configs[0]["isVerified"].as_bool(),
                configs[0]["statusMessage"].as_str()
            ),
            (Some(false), Some("bakery.example is missing DMARC"))
        );
        let eve = active(&app, "eve").await;
        let (status, _) = eve
            .post_json(
                "/api/user/verify-email-config",
                json!({ "configId": configs[0]["id"] }),
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);

        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Hi", "subject": "Hi {{businessName}}", "objective": "Partnership Proposal", "tone": "friendly",
            "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
        })).await;
        let (_, imported) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                b"name,email\nSauna Oy,info@sauna.example\nKahvila,hei@kahvila.example\n".to_vec(),
            )
            .await;
        let first = imported["businesses"][1]["id"].as_i64().unwrap();
        let second = imported["businesses"][0]["id"].as_i64().unwrap();
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "One" }))
            .await;
        let (_, progress) = launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [first] })).await;
        assert_eq!(progress["progress"]["sent"], 1, "{progress}");
        let sent: Vec<Value> = sendgrid
            .received_requests()
            .await
            .unwrap()
            .iter()
            .filter(|request| request.url.path() == "/v3/mail/send")
            .map(|request| serde_json::from_slice(&request.body).unwrap())
            .collect();
        assert_eq!(
            sent[0]["personalizations"][0]["to"][0]["email"],
            "info@sauna.example"
        );
        assert_eq!(sent[0]["subject"], "Hi Sauna Oy");

        // The key is revoked: the sender turns off with the reason, the message waits, the campaign pauses.
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Two" }))
            .await;
        let (_, progress) = launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [second] })).await;
        assert_eq!(
            (
                progress["status"].as_str(),
                progress["progress"]["queued"].as_i64()
            ),
            (Some("paused"), Some(1)),
            "{progress}"
        );
        assert!(
            progress["statusReason"]
                .as_str()
                .unwrap()
                .contains("SendGrid refused the API key"),
            "{progress}"
        );
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!(configs[0]["isActive"], false, "{configs}");
        assert!(
            configs[0]["statusMessage"]
                .as_str()
                .unwrap()
                .contains("SendGrid refused the API key")
        );
        // The waiting first email is not bound to it (it gets its sender when it is sent), so it may be removed: the
        // campaign stays paused, its email queued, and never goes through the outbox instead.
        let config_id = configs[0]["id"].as_i64().unwrap();
        let (status, removed) = ada
            .delete_json(&format!("/api/user/email-configs/{config_id}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{removed}");
        assert!(
            ada.get_json("/api/user/email-configs")
                .await
                .1
                .as_array()
                .unwrap()
                .is_empty()
        );
        let id = campaign["id"].as_i64().unwrap();
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!(
            (progress["status"].as_str(), progress["progress"]["queued"].as_i64()),
            (Some("paused"), Some(1)),
            "{progress}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn test_emails_go_to_the_test_address_personalised_and_validated() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        // Tests to an address other than the sender's carry the footer, which needs the postal address.
        ada.put_json("/api/user/profile", json!({ "postalAddress": "Bakery Street 1, 00100 Helsinki" })).await;
        // Issue 83.7: a new SMTP sender's domain has not been checked: it is not shown as verified.
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert_eq!(configs[0]["isVerified"], false, "{configs}");
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Hi", "subject": "Bread for {{businessName | you}}", "objective": "Partnership Proposal", "tone": "friendly",
            "emailSignature": "Ada", "body": "<p>Hello [business name]</p><p>Bread for every {{category | shop}} in {{city | town}}.</p>"
        })).await;
        let leads = "name,email\nCafé Aalto,owner@aalto.example\nKahvila Kuu,kuu@kuu.example\nA,a@a.example\nB,b@b.example\nC,c@c.example\nD,d@d.example\n";
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

        for (path, body, message) in [
            (
                "/api/campaigns/send-test-email",
                json!({ "to": "not-an-address", "subject": "S", "body": "<p>B</p>" }),
                "Please enter a valid email address",
            ),
            (
                "/api/campaigns/send-test-email",
                json!({ "to": "me@test.example", "subject": "S" }),
                "Missing Content: Please select a template or enter custom subject and body.",
            ),
            (
                "/api/campaigns/test",
                json!({ "testEmail": "me@test.example", "quantity": 11, "templateId": template["id"] }),
                "Quantity must be between 1 and 10",
            ),
            (
                "/api/test-campaign",
                json!({ "testEmail": "me@test.example", "businessIds": ids, "templateId": template["id"] }),
                "Please select a maximum of 5 businesses for testing.",
            ),
        ] {
            let (status, answer) = ada.post_json(path, body).await;
            assert_eq!(
                (status, answer["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message)),
                "{path}"
            );
        }
        assert!(sink.messages().is_empty(), "nothing sent for bad requests");

        let (status, single) = ada.post_json("/api/campaigns/send-test-email", json!({ "to": "me@test.example", "subject": "Just checking", "body": "<p>Plain test</p>", "isTest": true })).await;
        assert_eq!(
            (status, single["success"].as_bool()),
            (StatusCode::OK, Some(true)),
            "{single}"
        );
        let (_, copies) = ada.post_json("/api/campaigns/test", json!({ "testEmail": "me@test.example", "quantity": 2, "templateId": template["id"] })).await;
        assert_eq!(copies["sent"], 2, "{copies}");
        let (_, per_business) = ada.post_json("/api/test-campaign", json!({ "testEmail": "me@test.example", "businessIds": [ids[5], ids[4]], "templateId": template["id"] })).await;
        assert_eq!(
            (
                per_business["success"].as_bool(),
                per_business["sent"].as_i64()
            ),
            (Some(true), Some(2)),
            "{per_business}"
        );

        let received = sink.messages();
        assert_eq!(received.len(), 5);
        assert!(
            received
                .iter()
                .all(|message| message.contains("X-Rcpt-Args: <me@test.example>"))
        );
        let unfolded: Vec<String> = received
            .iter()
            .map(|message| message.replace("=\r\n", "").replace("=\n", ""))
            .collect();
        assert_eq!(
            unfolded
                .iter()
                .filter(|message| message.contains("Subject: Just checking"))
                .count(),
            1
        );
        assert_eq!(
            unfolded
                .iter()
                .filter(|message| message.contains("Subject: Bread for Sample Business"))
                .count(),
            2,
            "a test without a business is written for a sample one (A §5)"
        );
        assert_eq!(
            unfolded
                .iter()
                .filter(|message| message.contains("Hello Sample Business"))
                .count(),
            2
        );
        // Issue 83.12: every variable of a test without a business is filled from the sample, none left empty.
        assert_eq!(
            unfolded
                .iter()
                .filter(|message| message.contains("Bread for every Sample Category in Sample City."))
                .count(),
            2
        );
        assert!(
            unfolded.iter().any(|message| message.contains("Hello Caf")),
            "personalised per business"
        );
        assert!(
            unfolded
                .iter()
                .any(|message| message.contains("Hello Kahvila Kuu"))
        );
        assert_eq!(ada.get_json("/api/email-usage").await.1["count"], 5);
        // Issue 33.6: with every sender turned off, a test is refused in the spec's words, not left in the outbox.
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        let config = configs[0]["id"].as_i64().unwrap();
        app.ctx.db.sending().deactivate_email_config(config, "Turned off for the test", app.clock.now_ms()).await.unwrap();
        let (status, refused) = ada.post_json("/api/campaigns/test", json!({ "testEmail": "me@test.example", "quantity": 1, "templateId": template["id"] })).await;
        assert_eq!((status, refused["error"].as_str()), (StatusCode::CONFLICT, Some("email_service_not_configured")), "{refused}");
        assert!(refused["message"].as_str().unwrap().starts_with("Email service not configured"), "{refused}");
        assert_eq!(ada.get_json("/api/email-usage").await.1["count"], 5, "nothing more was sent");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn basic_addresses_on_the_sending_domain_are_unique_and_send_through_the_operators_key() {
    each_backend(|test_db| async move {
        let sendgrid = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v3/mail/send"))
            .and(header("authorization", "Bearer SG.operator"))
            .respond_with(ResponseTemplate::new(202).insert_header("X-Message-Id", "sg-op"))
            .expect(2)
            .mount(&sendgrid)
            .await;
        let uri = sendgrid.uri();
        let app = TestApp::start_with(test_db, move |settings| {
            settings.sendgrid.api_url = uri;
            settings.sendgrid.api_key = outreach_core::platform::config::Secret::new("SG.operator");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let rule = "Username must be 3-30 characters and contain only letters, numbers, hyphens, and underscores";
        let (_, short) = ada
            .post_json("/api/user/check-username", json!({ "username": "ab" }))
            .await;
        assert_eq!(short, json!({ "available": false, "reason": rule }));
        let (_, free) = ada
            .post_json(
                "/api/user/check-username",
                json!({ "username": "ada_baker" }),
            )
            .await;
        assert_eq!(free["available"], true);
        let (_, suggested) = ada.get_json("/api/user/suggest-username").await;
        assert!(
            suggested["emailAddress"]
                .as_str()
                .unwrap()
                .ends_with("@hello.127.0.0.1"),
            "{suggested}"
        );

        let (status, missing) = ada
            .post_json(
                "/api/sendgrid/create-basic-address",
                json!({ "firstName": "Ada", "emailPrefix": "ada_baker" }),
            )
            .await;
        assert_eq!(
            (status, missing["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("First name, last name and email username are required")
            )
        );
        let (status, bad) = ada
            .post_json(
                "/api/sendgrid/create-basic-address",
                json!({ "firstName": "Ada", "lastName": "Baker", "emailPrefix": "ada.baker" }),
            )
            .await;
        assert_eq!(
            (status, bad["message"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(rule))
        );
        let (status, created) = ada
            .post_json(
                "/api/sendgrid/create-basic-address",
                json!({ "firstName": "Ada", "lastName": "Baker", "emailPrefix": "ada_baker" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{created}");
        assert_eq!(created["emailAddress"], "ada_baker@hello.127.0.0.1");
        let (_, taken) = ada
            .post_json(
                "/api/user/check-username",
                json!({ "username": "Ada_Baker" }),
            )
            .await;
        assert_eq!(
            taken,
            json!({ "available": false, "reason": "This username is already taken" })
        );
        let eve = active(&app, "eve").await;
        let (status, refused) = eve
            .post_json(
                "/api/sendgrid/create-basic-address",
                json!({ "firstName": "Eve", "lastName": "X", "emailPrefix": "ada_baker" }),
            )
            .await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("This username is already taken")
            )
        );

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
            .post_json("/api/campaigns", json!({ "name": "Basic" }))
            .await;
        let (_, progress) = launch_and_finish(&ada, json!({
            "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [imported["businesses"][0]["id"]],
            "emailConfigId": created["id"]
        })).await;
        assert_eq!(progress["progress"]["sent"], 1, "{progress}");
        let sent: Value =
            serde_json::from_slice(&sendgrid.received_requests().await.unwrap()[0].body).unwrap();
        assert_eq!(
            sent["from"],
            json!({ "email": "ada_baker@hello.127.0.0.1", "name": "Ada Baker" })
        );

        // Send Test: from the basic address to the user's own login address.
        let (status, missing) = ada
            .post_json(
                "/api/sendgrid/send-test",
                json!({ "emailPrefix": "nobody_here" }),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{missing}");
        let (status, tested) = ada
            .post_json(
                "/api/sendgrid/send-test",
                json!({ "emailPrefix": "ada_baker" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{tested}");
        assert_eq!(
            (tested["success"].as_bool(), tested["fromEmail"].as_str()),
            (Some(true), Some("ada_baker@hello.127.0.0.1")),
            "{tested}"
        );
        let test: Value =
            serde_json::from_slice(&sendgrid.received_requests().await.unwrap()[1].body).unwrap();
        assert_eq!(
            test["personalizations"][0]["to"][0]["email"],
            "ada@example.org"
        );
        assert_eq!(test["subject"], "Test email from ada_baker@hello.127.0.0.1");

        // Editing the identity: a new username is checked like a new address; another user's id is not found.
        let id = created["id"].as_i64().unwrap();
        let edit = |prefix: &str| json!({ "firstName": "Ada", "lastName": "Lovelace", "emailPrefix": prefix, "replyTo": "ada@work.example" });
        let (status, _) = eve
            .put_json(&format!("/api/user/email-configs/{id}"), edit("eve_took"))
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, bad) = ada
            .put_json(
                &format!("/api/user/email-configs/{id}"),
                json!({ "firstName": "Ada", "emailPrefix": "x" }),
            )
            .await;
        assert_eq!(
            (status, bad["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("First name and last name are required")
            )
        );
        let (status, edited) = ada
            .put_json(&format!("/api/user/email-configs/{id}"), edit("ada_l"))
            .await;
        assert_eq!(status, StatusCode::OK, "{edited}");
        assert_eq!(
            (
                edited["config"]["emailAddress"].as_str(),
                edited["config"]["sendFromName"].as_str(),
                edited["config"]["replyTo"].as_str()
            ),
            (
                Some("ada_l@hello.127.0.0.1"),
                Some("Ada Lovelace"),
                Some("ada@work.example")
            )
        );
        assert_eq!(
            ada.post_json(
                "/api/user/check-username",
                json!({ "username": "ada_baker" })
            )
            .await
            .1["available"],
            true
        );
        app.stop().await;
    })
    .await;
}
