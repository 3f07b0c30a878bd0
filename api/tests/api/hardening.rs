//! Attacks and abuse from outside (issue 15): DNS rebinding, login CSRF, error bodies, security headers, sign-out by
//! POST. Each test failed before its fix.

use super::*;

/// A request to the app with another `Host` header, as a page on a rebound name would send it.
async fn with_host(
    browser: &Browser,
    builder: reqwest::RequestBuilder,
    host: &str,
) -> reqwest::Response {
    browser.send(builder.header("host", host)).await
}

#[tokio::test]
async fn a_rebound_host_name_reaches_nothing_and_local_sign_in_needs_a_loopback_host() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| settings.google.client_id.clear()).await;
        let port = app.base.rsplit(':').next().unwrap().to_string();
        let evil = format!("rebound.evil.example:{port}");
        let page = app.browser();
        // The attacker's page, its name now resolving to 127.0.0.1, posts to the local sign-in as itself.
        let attempt = with_host(
            &page,
            page.http
                .post(page.url("/auth/local"))
                .header("origin", format!("http://{evil}"))
                .json(&json!({ "email": ADMIN })),
            &evil,
        )
        .await;
        assert_eq!(attempt.status(), StatusCode::MISDIRECTED_REQUEST);
        assert!(
            attempt.headers().get(SET_COOKIE).is_none(),
            "no session for a foreign host"
        );
        let body: Value = attempt.json().await.unwrap();
        assert_eq!(body["error"], "unknown_host");
        assert!(page.session().is_none());
        // Reads are refused too: a rebound page cannot read the signed-in user's data either.
        let read = with_host(&page, page.http.get(page.url("/api/auth/options")), &evil).await;
        assert_eq!(read.status(), StatusCode::MISDIRECTED_REQUEST);
        // Health checks answer whatever name a load balancer uses.
        let health = with_host(&page, page.http.get(page.url("/healthz")), &evil).await;
        assert_eq!(health.status(), StatusCode::OK);

        // Loopback names of a loopback listener are this server.
        let local = format!("localhost:{port}");
        let signed_in = with_host(
            &page,
            page.http
                .post(page.url("/auth/local"))
                .header("origin", format!("http://{local}"))
                .json(&json!({ "email": "ada@example.org" })),
            &local,
        )
        .await;
        assert_eq!(signed_in.status(), StatusCode::OK);
        assert!(page.session().is_some());
        let test_db = {
            app.server.abort();
            app.test_db
        };

        // A public name in front of a loopback listener (a reverse proxy): local sign-in is not for it.
        let app = TestApp::start_with(test_db, |settings| {
            settings.google.client_id.clear();
            settings.http.public_url = "https://outreach.example.com".into();
        })
        .await;
        let visitor = app.browser();
        let (status, options) = {
            let response = with_host(
                &visitor,
                visitor.http.get(visitor.url("/api/auth/options")),
                "outreach.example.com",
            )
            .await;
            (response.status(), response.json::<Value>().await.unwrap())
        };
        assert_eq!(
            (status, options["localSignIn"].as_bool()),
            (StatusCode::OK, Some(false))
        );
        let proxied = with_host(
            &visitor,
            visitor
                .http
                .post(visitor.url("/auth/local"))
                .header("origin", "https://outreach.example.com")
                .json(&json!({ "email": ADMIN })),
            "outreach.example.com",
        )
        .await;
        assert_eq!(proxied.status(), StatusCode::FORBIDDEN);
        assert!(visitor.session().is_none());
        // The public origin is ours; the listener's own address as Origin is not the public site.
        let foreign_origin = with_host(
            &visitor,
            visitor
                .http
                .post(visitor.url("/api/unsubscribe"))
                .header("origin", "https://rebound.evil.example")
                .json(&json!({ "email": "x@example.org" })),
            "outreach.example.com",
        )
        .await;
        assert_eq!(foreign_origin.status(), StatusCode::FORBIDDEN);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_sign_in_callback_opened_in_another_browser_signs_nobody_in() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        app.google_person("eve", "eve@example.org", "Eve", "Attacker")
            .await;
        // The attacker starts a sign-in in their own browser and stops at the provider's answer.
        let attacker = app.browser();
        let start = attacker.get("/auth/google").await;
        let flow_cookie = start
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .map(|value| value.to_str().unwrap().to_string())
            .find(|value| value.starts_with("outreach_oauth="))
            .expect("the flow is bound to the browser by a cookie");
        for attribute in ["HttpOnly", "SameSite=Lax", "Max-Age=600", "Path=/"] {
            assert!(flow_cookie.contains(attribute), "{flow_cookie}");
        }
        let consent = url::Url::parse(&location(&start)).unwrap();
        let query: std::collections::HashMap<String, String> =
            consent.query_pairs().into_owned().collect();
        app.challenges
            .lock()
            .unwrap()
            .push(query["code_challenge"].clone());
        let callback = format!(
            "/auth/google/callback?code=code-eve&state={}",
            query["state"]
        );
        // The victim's browser opens the unused callback URL: it must not be signed into the attacker's account.
        let victim = app.browser();
        let opened = victim.get(&callback).await;
        assert_eq!(location(&opened), "/login?error=state_mismatch");
        assert!(victim.session().is_none());
        // The browser that started the flow finishes it.
        let finished = attacker.get(&callback).await;
        assert_eq!(location(&finished), "/dashboard");
        assert!(attacker.session().is_some());
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_gmail_connection_finishes_only_in_the_browser_that_started_it() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        // The same person signed in on a second device.
        let other_device = app.browser();
        other_device.use_session(&ada.session().unwrap());
        mount_gmail_token_endpoint(&app).await;
        let (status, body) = ada
            .post_json(
                "/api/auth/gmail/additional",
                json!({ "email": "ada@gmail.com" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let returned_state = gmail_consent(
            &app,
            body["authUrl"].as_str().unwrap(),
            "ada@gmail.com",
            GMAIL_SEND,
        );
        let callback = format!("/api/gmail/callback?code=gmail-ada&state={returned_state}");
        let elsewhere = other_device.get(&callback).await;
        assert_eq!(
            location(&elsewhere),
            "/gmail-oauth-result?success=false&error=callback_failed"
        );
        assert!(
            ada.get_json("/api/user/email-configs")
                .await
                .1
                .as_array()
                .unwrap()
                .is_empty(),
            "nothing connected"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn sign_out_is_a_post_and_the_get_is_the_page_that_posts_it() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        // A link or an image on another site cannot sign anyone out.
        let page = ada.get("/auth/logout").await;
        assert_eq!(page.status(), StatusCode::OK);
        assert!(
            page.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert_eq!(ada.get_json("/api/auth/user").await.0, StatusCode::OK);
        let forged = ada
            .send(
                ada.http
                    .post(ada.url("/auth/logout"))
                    .header("origin", "https://evil.example"),
            )
            .await;
        assert_eq!(forged.status(), StatusCode::FORBIDDEN);
        assert_eq!(ada.get_json("/api/auth/user").await.0, StatusCode::OK);

        let session = ada.session().unwrap();
        let signed_out = ada
            .send(
                ada.http
                    .post(ada.url("/auth/logout"))
                    .header("origin", app.base.as_str()),
            )
            .await;
        assert_eq!(signed_out.status(), StatusCode::NO_CONTENT);
        assert!(ada.session().is_none(), "cookie cleared");
        let stale = app.browser();
        stale.use_session(&session);
        assert_eq!(
            stale.get_json("/api/auth/user").await.0,
            StatusCode::UNAUTHORIZED
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn every_error_is_json_with_a_code_and_a_message() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Errors" }))
            .await;
        let id = campaign["id"].as_i64().unwrap();
        let checks: Vec<(reqwest::Response, StatusCode)> = vec![
            (
                ada.get("/api/campaigns/not-a-number").await,
                StatusCode::BAD_REQUEST,
            ),
            (
                ada.get("/api/campaigns/99999999999999999999999").await,
                StatusCode::BAD_REQUEST,
            ),
            (
                ada.get("/api/emails/sent?limit=lots").await,
                StatusCode::BAD_REQUEST,
            ),
            (
                app.browser().get("/api/unsubscribe/verify").await,
                StatusCode::BAD_REQUEST,
            ),
            (
                ada.send(ada.http.delete(ada.url("/api/email-usage"))).await,
                StatusCode::METHOD_NOT_ALLOWED,
            ),
            (
                ada.send(
                    ada.http
                        .post(ada.url(&format!("/api/campaigns/{id}/education-files")))
                        .header("content-type", "multipart/form-data; boundary=nope")
                        .body("not multipart at all"),
                )
                .await,
                StatusCode::BAD_REQUEST,
            ),
        ];
        for (response, status) in checks {
            let url = response.url().to_string();
            assert_eq!(response.status(), status, "{url}");
            assert!(
                response.headers()["content-type"]
                    .to_str()
                    .unwrap()
                    .starts_with("application/json"),
                "{url}"
            );
            let body: Value = response.json().await.unwrap();
            assert!(
                body["error"].as_str().is_some_and(|code| !code.is_empty())
                    && body["message"]
                        .as_str()
                        .is_some_and(|text| !text.is_empty()),
                "{url}: {body}"
            );
        }

        // An upload over the limit gets the spec's own message, naming the file.
        let big = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(vec![b'a'; 11 * 1024 * 1024]).file_name("huge.txt"),
        );
        let response = ada
            .send(
                ada.http
                    .post(ada.url(&format!("/api/campaigns/{id}/education-files")))
                    .multipart(big),
            )
            .await;
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(
            response.json::<Value>().await.unwrap()["message"],
            "huge.txt is larger than 10MB. Please choose a smaller file."
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn pages_and_answers_carry_security_headers() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let browser = app.browser();
        for path in ["/", "/dashboard", "/api/auth/options", "/healthz"] {
            let response = browser.get(path).await;
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .map(|value| value.to_str().unwrap().to_string())
                    .unwrap_or_default()
            };
            let policy = header("content-security-policy");
            for directive in [
                "default-src 'self'",
                "script-src 'self'",
                "object-src 'none'",
                "base-uri 'none'",
                "frame-ancestors 'none'",
                "form-action 'self'",
            ] {
                assert!(policy.contains(directive), "{path}: {policy}");
            }
            assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
            assert_eq!(header("referrer-policy"), "same-origin", "{path}");
            assert_eq!(header("x-frame-options"), "DENY", "{path}");
        }
        app.stop().await;
    })
    .await;
}
