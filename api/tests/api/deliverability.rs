//! Deliverability (issue 81): new campaigns send plain text without tracking, unsubscribe links carry an opaque
//! token (older links still work), click tracking rewrites plain-text links, the pre-launch check scores the first
//! message (SpamAssassin when installed, else the built-in checks), and A/B variants split evenly and pick a winner.

use super::*;

/// The spammy template of the issue: "FREE!!! Click here", a link shortener, one big image.
fn spammy() -> Value {
    json!({
        "name": "Spam", "subject": "FREE!!! Click here NOW", "objective": "Marketing Pitch", "tone": "casual",
        "emailSignature": "Ada",
        "body": "<p><a href=\"https://bit.ly/3xYzAb\">FREE!!! Click here</a></p><p><img src=\"https://img.example/big.jpg\" width=\"600\" height=\"800\"></p>"
    })
}

/// The default campaign the offline writer drafts.
async fn written_template(browser: &Browser) -> Value {
    let (status, draft) = browser.post_json("/api/emails/generate", brief()).await;
    assert_eq!(status, StatusCode::OK, "{draft}");
    let (status, template) = browser.post_json("/api/email-templates", json!({
        "name": "Intro", "subject": draft["subject"], "body": draft["body"], "objective": "Partnership Proposal",
        "tone": "friendly", "emailSignature": "Ada"
    })).await;
    assert_eq!(status, StatusCode::CREATED, "{template}");
    template
}

#[tokio::test]
async fn new_campaigns_send_plain_text_with_opaque_unsubscribe_links_and_old_links_still_work() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Plain", 1).await;
        let campaign = &ready.campaign;
        assert_eq!(
            (
                &campaign["plainText"],
                &campaign["trackOpens"],
                &campaign["trackClicks"]
            ),
            (&json!(true), &json!(false), &json!(false)),
            "{campaign}"
        );
        launch_and_finish(&ada, ready.launch.clone()).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let message = &outbox[0];
        let html = message["htmlBody"].as_str().unwrap_or_default();
        assert_eq!(html, "", "no HTML part, so no pixel");
        let text = message["textBody"].as_str().unwrap();
        assert!(!text.contains("/t/o/") && !text.contains("/t/c/"), "{text}");
        // The address is in no link: the unsubscribe link carries an opaque token.
        assert!(!text.contains("owner0") && !text.contains("%40"), "{text}");
        let start = text
            .find(&format!("{}/unsubscribe?t=", app.base))
            .expect(text);
        let link = text[start..].split_whitespace().next().unwrap().to_string();
        let token = link.split("?t=").nth(1).unwrap();

        let visitor = app.browser();
        let (status, linked) = visitor
            .get_json(&format!("/api/unsubscribe/verify?t={token}"))
            .await;
        assert_eq!(
            (status, linked["email"].as_str()),
            (StatusCode::OK, Some("owner0@cafe0.example"))
        );
        // Issue 83.16: the page can say whose emails stop.
        assert!(
            linked["sender"]
                .as_str()
                .is_some_and(|sender| !sender.is_empty()),
            "{linked}"
        );
        assert_eq!(
            visitor
                .get_json("/api/unsubscribe/verify?t=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                .await
                .0,
            StatusCode::BAD_REQUEST
        );
        let http = reqwest::Client::new();
        let tampered = format!("{link}x");
        let refused = http
            .post(&tampered)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), StatusCode::NOT_FOUND);
        let done = http
            .post(&link)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), StatusCode::OK);
        let stored = app
            .ctx
            .db
            .sending()
            .find_unsubscribe("owner0@cafe0.example")
            .await
            .unwrap();
        assert_eq!(stored.unwrap().source, "one_click");

        // A link sent before the tokens (the address and its signature) still unsubscribes.
        let old = outreach_core::sending::links::legacy_unsubscribe_url(
            &app.ctx.settings,
            "old@cafe.example",
        );
        let done = http
            .post(&old)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), StatusCode::OK);
        assert!(
            app.ctx
                .db
                .sending()
                .find_unsubscribe("old@cafe.example")
                .await
                .unwrap()
                .is_some()
        );
        // The page's form posts the token.
        let (status, _) = visitor
            .post_json(
                "/api/unsubscribe",
                json!({ "token": outreach_core::sending::links::unsubscribe_token(
                &app.ctx.settings.security.secret_key, "form@cafe.example", "Ada") }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let stored = app
            .ctx
            .db
            .sending()
            .find_unsubscribe("form@cafe.example")
            .await
            .unwrap();
        assert_eq!(stored.unwrap().source, "link");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn tracking_is_a_campaign_setting_and_plain_text_clicks_are_tracked_by_rewriting_links() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Clicks", 1).await;
        let id = ready.campaign["id"].as_i64().unwrap();
        let (status, error) = ada
            .put_json(&format!("/api/campaigns/{id}"), json!({ "trackClicks": "yes" }))
            .await;
        assert!(status.is_client_error(), "{error}");
        let (status, campaign) = ada
            .put_json(&format!("/api/campaigns/{id}"), json!({ "trackClicks": true }))
            .await;
        assert_eq!(status, StatusCode::OK, "{campaign}");
        assert_eq!((&campaign["plainText"], &campaign["trackClicks"]), (&json!(true), &json!(true)));
        let template = ready.template["id"].as_i64().unwrap();
        let (status, _) = ada.put_json(&format!("/api/email-templates/{template}"), json!({
            "name": "Hi", "subject": "Hi", "body": "<p>See <a href=\"https://bakery.example/menu\">our menu</a></p>"
        })).await;
        assert_eq!(status, StatusCode::OK);
        launch_and_finish(&ada, ready.launch.clone()).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!(outbox[0]["htmlBody"].as_str().unwrap_or_default(), "");
        let text = outbox[0]["textBody"].as_str().unwrap();
        let start = text.find(&format!("{}/t/c/", app.base)).expect(text);
        let link = text[start..].split([')', ' ', '\n']).next().unwrap();
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let clicked = http.get(link).send().await.unwrap();
        assert_eq!(clicked.status(), StatusCode::SEE_OTHER);
        assert_eq!(clicked.headers()["location"], "https://bakery.example/menu");

        // HTML with the pixel again, as campaigns made before issue 81 keep sending.
        let (_, campaign) = ada.put_json(&format!("/api/campaigns/{id}"),
            json!({ "plainText": false, "trackOpens": true, "trackClicks": false })).await;
        assert_eq!(
            (&campaign["plainText"], &campaign["trackOpens"], &campaign["trackClicks"]),
            (&json!(false), &json!(true), &json!(false))
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn opens_of_campaigns_without_the_pixel_are_not_tracked_rather_than_zero() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Untracked", 2).await;
        launch_and_finish(&ada, ready.launch.clone()).await;
        let id = ready.campaign["id"].as_i64().unwrap();
        let (_, analytics) = ada.get_json("/api/analytics/campaigns").await;
        let card = analytics
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()
            .clone();
        assert_eq!(card["opensTracked"], false, "{card}");
        let (_, details) = ada.get_json(&format!("/api/campaigns/{id}/details")).await;
        assert_eq!(details["campaign"]["opensTracked"], false, "{details}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn the_pre_launch_check_scores_the_first_message_with_the_built_in_checks() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            settings.deliverability.spamassassin = "off".into();
        })
        .await;
        let ada = ready_to_send(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Spam", 1).await;
        let (_, check) = ada
            .post_json("/api/campaigns/launch-check", ready.launch.clone())
            .await;
        let spam = &check["spamCheck"];
        assert_eq!(spam["engine"], "builtin", "{check}");
        assert!(spam["score"].as_f64().unwrap() < 5.0, "{spam}");
        let (_, template) = ada.post_json("/api/email-templates", spammy()).await;
        let mut launch = ready.launch.clone();
        launch["templateId"] = template["id"].clone();
        let (_, check) = ada.post_json("/api/campaigns/launch-check", launch).await;
        let spam = &check["spamCheck"];
        assert!(spam["score"].as_f64().unwrap() >= 5.0, "{spam}");
        let names: Vec<&str> = spam["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|rule| rule["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"BUILTIN_SHORTENER") && names.contains(&"BUILTIN_SPAM_PHRASES"),
            "{names:?}"
        );
        for rule in spam["rules"].as_array().unwrap() {
            assert!(
                rule["points"].is_number() && rule["description"].is_string(),
                "{rule}"
            );
        }
        app.stop().await;
    })
    .await;
}

/// SpamAssassin's score of the first message of a launch (its local rules, as installed by `make test`).
async fn spamassassin_score(browser: &Browser, launch: &Value) -> (f64, Value) {
    let (status, check) = browser
        .post_json("/api/campaigns/launch-check", launch.clone())
        .await;
    assert_eq!(status, StatusCode::OK, "{check}");
    let spam = check["spamCheck"].clone();
    assert_eq!(spam["engine"], "spamassassin", "{check}");
    (spam["score"].as_f64().unwrap(), spam)
}

#[tokio::test]
async fn spamassassin_scores_the_default_campaign_low_and_a_spammy_one_as_spam() {
    assert!(
        std::path::Path::new("/usr/bin/spamassassin").exists()
            || std::process::Command::new("spamassassin")
                .arg("--version")
                .output()
                .is_ok(),
        "SpamAssassin is not installed: make system installs it (apt-get install spamassassin)"
    );
    // SQLite only: the scores do not depend on the database, and each run costs seconds of rule loading.
    let app = TestApp::start(TestDb::sqlite().await).await;
    let _workers = start_workers(&app);
    let ada = ready_to_send(&app, "ada").await;
    let (_, imported) = ada
        .upload(
            "/api/businesses/import",
            "leads.csv",
            b"name,email,website\nCafe Ursula,owner@cafe-ursula.fi,https://cafe-ursula.fi\n"
                .to_vec(),
        )
        .await;
    let business = imported["businesses"][0]["id"].clone();
    let template = written_template(&ada).await;
    let (_, campaign) = ada
        .post_json("/api/campaigns", json!({ "name": "Default" }))
        .await;
    let launch = json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [business] });
    let (default, report) = spamassassin_score(&ada, &launch).await;
    println!("SpamAssassin, default campaign (plain text, no tracking): {default} {report}");
    assert!(default <= 1.0, "{report}");

    let id = campaign["id"].as_i64().unwrap();
    ada.put_json(
        &format!("/api/campaigns/{id}"),
        json!({ "plainText": false, "trackOpens": true, "trackClicks": true }),
    )
    .await;
    let (tracked, report) = spamassassin_score(&ada, &launch).await;
    println!("SpamAssassin, HTML with open and click tracking: {tracked} {report}");
    assert!(tracked <= 2.0, "{report}");

    // The spammy template in the default format (plain text, links as written).
    ada.put_json(
        &format!("/api/campaigns/{id}"),
        json!({ "plainText": true, "trackOpens": false, "trackClicks": false }),
    )
    .await;
    let (_, spam) = ada.post_json("/api/email-templates", spammy()).await;
    let mut spammy_launch = launch.clone();
    spammy_launch["templateId"] = spam["id"].clone();
    let (score, report) = spamassassin_score(&ada, &spammy_launch).await;
    println!("SpamAssassin, spammy campaign: {score} {report}");
    // Templates keep no images (they are sanitised), so the spammy template of the API is its words and its
    // shortener, which plain text leaves as written; the message with the big image is core's spam test.
    assert!(score >= default + 1.0, "{report}");
    let names: Vec<&str> = report["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"SHORT_SHORTNER"), "{names:?}");
    app.stop().await;
}
