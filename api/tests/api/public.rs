//! Public endpoints: health, unsubscribing, signed unsubscribe links and the instance's own description.

use super::*;

#[tokio::test]
async fn health_readiness_and_unknown_endpoints() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let browser = app.browser();
        assert_eq!(
            browser.get_json("/healthz").await,
            (StatusCode::OK, json!({ "status": "ok" }))
        );
        let (status, ready) = browser.get_json("/readyz").await;
        assert_eq!(
            (status, ready["status"].as_str()),
            (StatusCode::OK, Some("ready"))
        );
        let (status, body) = browser.get_json("/api/no-such-thing").await;
        assert_eq!(
            (status, body["error"].as_str()),
            (StatusCode::NOT_FOUND, Some("not_found"))
        );
        // Client routes fall through to the web app (its not-found page handles unknown ones).
        let page = browser.get("/campaign-analytics/12").await;
        assert_ne!(page.status(), StatusCode::NOT_FOUND);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn unsubscribing_suppresses_an_address_once_and_is_rate_limited() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            settings.http.public_writes_per_minute = 4
        })
        .await;
        let visitor = app.browser();

        let (status, body) = visitor
            .post_json("/api/unsubscribe", json!({ "email": " Ada@Example.org " }))
            .await;
        assert_eq!(
            (status, body["success"].as_bool()),
            (StatusCode::OK, Some(true))
        );
        let (status, again) = visitor
            .post_json("/api/unsubscribe", json!({ "email": "ada@example.org" }))
            .await;
        assert_eq!(
            (status, again["success"].as_bool()),
            (StatusCode::OK, Some(true)),
            "repeating is harmless"
        );
        for bad in [json!({ "email": "not-an-email" }), json!({})] {
            let (status, body) = visitor.post_json("/api/unsubscribe", bad).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some("Please enter a valid email address")
                )
            );
        }
        // The fifth request within the minute from this client is refused and changes nothing.
        let refused = visitor
            .post("/api/unsubscribe", json!({ "email": "eve@example.org" }))
            .await;
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(refused.headers().contains_key("retry-after"));
        assert_eq!(
            refused.json::<Value>().await.unwrap()["error"],
            "rate_limited"
        );

        // The suppression list, as the administrator sees it.
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let response = admin.get("/api/admin/unsubscribes").await;
        assert_eq!(response.headers()["content-range"], "unsubscribes 0-0/1");
        let listed: Value = response.json().await.unwrap();
        assert_eq!(listed.as_array().unwrap().len(), 1);
        assert_eq!(
            (listed[0]["id"].as_str(), listed[0]["email"].as_str()),
            (Some("ada@example.org"), Some("ada@example.org"))
        );
        assert_eq!(listed[0]["source"], "form");
        let filtered = admin
            .get_json(r#"/api/admin/unsubscribes?filter={"q":"nobody"}"#)
            .await
            .1;
        assert_eq!(filtered, json!([]));
        assert_eq!(
            admin
                .get_json("/api/admin/unsubscribes?range=[5,1]")
                .await
                .0,
            StatusCode::BAD_REQUEST
        );
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        assert_eq!(
            ada.get_json("/api/admin/unsubscribes").await.0,
            StatusCode::FORBIDDEN
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn signed_unsubscribe_links_prefill_and_are_recorded_as_links() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let mut settings = Settings::default();
        settings.security.secret_key =
            outreach_core::platform::config::Secret::new("test-key-".repeat(8));
        settings.http.public_url = app.base.clone();
        // A link of an email sent before issue 81 (the address and its signature) still pre-fills; links sent since
        // carry a sealed token (the deliverability tests).
        let link =
            outreach_core::sending::links::legacy_unsubscribe_url(&settings, "grace@example.org");
        let query = url::Url::parse(&link).unwrap();
        assert_eq!(query.path(), "/unsubscribe");
        let params: std::collections::HashMap<String, String> =
            query.query_pairs().into_owned().collect();

        let visitor = app.browser();
        let verify = format!(
            "/api/unsubscribe/verify?email={}&signature={}",
            "grace%40example.org", params["signature"]
        );
        assert_eq!(
            visitor.get_json(&verify).await,
            (
                StatusCode::OK,
                json!({ "email": "grace@example.org", "sender": null })
            ),
            "an older link names no sender"
        );
        let forged = format!(
            "/api/unsubscribe/verify?email=eve%40example.org&signature={}",
            params["signature"]
        );
        assert_eq!(visitor.get_json(&forged).await.0, StatusCode::BAD_REQUEST);

        let body = json!({ "email": "grace@example.org", "signature": params["signature"] });
        assert_eq!(
            visitor.post_json("/api/unsubscribe", body).await.0,
            StatusCode::OK
        );
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        assert_eq!(
            admin.get_json("/api/admin/unsubscribes").await.1[0]["source"],
            "link"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_instance_describes_itself_to_public_pages() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            settings.instance.operator_name = "Acme Outreach".into();
            settings.instance.support_emails =
                vec!["help@acme.example".into(), "billing@acme.example".into()];
            settings.instance.sending_domain = "hello.acme.example".into();
        })
        .await;
        let (status, instance) = app.browser().get_json("/api/instance").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(instance["operatorName"], "Acme Outreach");
        assert_eq!(
            instance["contactEmail"], ADMIN,
            "the first administrator by default"
        );
        assert_eq!(
            instance["supportEmails"],
            json!(["help@acme.example", "billing@acme.example"])
        );
        assert_eq!(instance["sendingDomain"], "hello.acme.example");
        assert_eq!(instance["inviteOnly"], true);
        // Issue 83.20: the version the analytics debug panel shows.
        assert_eq!(instance["version"], env!("CARGO_PKG_VERSION"));
        app.stop().await;
    })
    .await;
}
