//! Sign-in, sessions, the account gate, administrators, invites and the local sign-in (A §6, B §2.15).

use super::*;

#[tokio::test]
async fn google_sign_in_creates_an_inactive_account_behind_the_gate() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        app.google_person("ada", "Ada@Example.org", "Ada", "Lovelace")
            .await;
        let browser = app.browser();
        assert_eq!(
            browser.get_json("/api/auth/user").await.0,
            StatusCode::UNAUTHORIZED
        );

        let callback = browser.google_round_trip(&app, "code-ada", None).await;
        assert_eq!(callback.status(), StatusCode::SEE_OTHER);
        assert_eq!(location(&callback), "/dashboard");
        let cookie = callback
            .headers()
            .get(SET_COOKIE)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(cookie.contains(attribute), "{cookie}");
        }
        assert!(!cookie.contains("Secure"), "plain http on loopback");

        let (status, user) = browser.get_json("/api/auth/user").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(user["email"], "ada@example.org");
        assert_eq!(
            (user["firstName"].as_str(), user["lastName"].as_str()),
            (Some("Ada"), Some("Lovelace"))
        );
        assert_eq!(
            (user["accountStatus"].as_str(), user["hasAccess"].as_bool()),
            (Some("inactive"), Some(false))
        );

        // Gated endpoints refuse with the body shape; non-gated ones answer.
        let (status, body) = browser.get_json("/api/email-usage").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(
            body,
            json!({ "error": "account_inactive", "message": "Account inactive or subscription expired" })
        );
        assert_eq!(
            app.browser().get_json("/api/email-usage").await.0,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            browser.get_json("/api/auth/options").await.0,
            StatusCode::OK
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn provider_failures_lead_back_to_login_with_a_reason() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let browser = app.browser();

        let denied = browser
            .get("/auth/google/callback?error=access_denied&state=whatever")
            .await;
        assert_eq!(location(&denied), "/login?error=access_denied");

        // A state the server never issued (or one already used) is refused before any token exchange.
        let forged = browser
            .get("/auth/google/callback?code=code-eve&state=forged")
            .await;
        assert_eq!(location(&forged), "/login?error=state_mismatch");

        // The provider refuses the code.
        let refused = browser.google_round_trip(&app, "stolen", None).await;
        assert_eq!(location(&refused), "/login?error=token_exchange_failed");

        // Replaying a finished flow's state is a mismatch too.
        app.google_person("ada", "ada@example.org", "Ada", "L")
            .await;
        let start = browser.get("/auth/google").await;
        let consent = url::Url::parse(&location(&start)).unwrap();
        let (_, state) = consent
            .query_pairs()
            .find(|(key, _)| key == "state")
            .unwrap();
        let (_, challenge) = consent
            .query_pairs()
            .find(|(key, _)| key == "code_challenge")
            .unwrap();
        app.challenges.lock().unwrap().push(challenge.into_owned());
        let first = browser
            .get(&format!(
                "/auth/google/callback?code=code-ada&state={state}"
            ))
            .await;
        assert_eq!(location(&first), "/dashboard");
        let replay = app
            .browser()
            .get(&format!(
                "/auth/google/callback?code=code-ada&state={state}"
            ))
            .await;
        assert_eq!(location(&replay), "/login?error=state_mismatch");

        assert_eq!(
            browser.get("/auth/google/callback").await.status(),
            StatusCode::SEE_OTHER
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn each_sign_in_gets_a_new_session_and_sign_out_ends_it() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let browser = app.signed_in("ada", "ada@example.org", "Ada").await;
        let first = browser.session().unwrap();
        browser.google_round_trip(&app, "code-ada", None).await;
        let second = browser.session().unwrap();
        assert_ne!(first, second, "a fresh session id at every sign-in");

        // The old cookie no longer works.
        let stale = app.browser();
        stale.use_session(&first);
        assert_eq!(
            stale.get_json("/api/auth/user").await.0,
            StatusCode::UNAUTHORIZED
        );

        let logout = browser
            .send(browser.http.post(browser.url("/auth/logout")))
            .await;
        assert_eq!(logout.status(), StatusCode::NO_CONTENT);
        assert!(browser.session().is_none(), "cookie cleared");
        let after = app.browser();
        after.use_session(&second);
        assert_eq!(
            after.get_json("/api/auth/user").await.0,
            StatusCode::UNAUTHORIZED,
            "session ended on the server"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn administrators_are_active_and_alone_on_admin_endpoints() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        let anonymous = app.browser();

        let (status, user) = admin.get_json("/api/auth/user").await;
        assert_eq!(
            (
                status,
                user["isAdmin"].as_bool(),
                user["hasAccess"].as_bool()
            ),
            (StatusCode::OK, Some(true), Some(true))
        );
        assert_eq!(
            admin.get_json("/api/email-usage").await.1,
            json!({ "count": 0, "limit": 2500, "planType": "admin" })
        );

        for (path, body) in [
            (
                "/api/admin/set-user-status",
                json!({ "email": "ada@example.org", "status": "free_trial" }),
            ),
            ("/api/admin/invites", json!({})),
        ] {
            assert_eq!(
                ada.post_json(path, body.clone()).await.0,
                StatusCode::FORBIDDEN,
                "{path}"
            );
            assert_eq!(
                anonymous.post_json(path, body).await.0,
                StatusCode::UNAUTHORIZED,
                "{path}"
            );
        }
        assert_eq!(
            ada.get_json("/api/admin/user-status?email=ada@example.org")
                .await
                .0,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            ada.get_json("/api/admin/invites").await.0,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            ada.get_json("/api/auth/user").await.1["accountStatus"],
            "inactive",
            "refusals change nothing"
        );

        // Validation, with B §5's messages, changes nothing.
        let cases = [
            (
                json!({ "status": "free_trial", "email": "  " }),
                "Please enter a user email address",
            ),
            (
                json!({ "status": "premium", "email": "ada@example.org" }),
                "Please enter both email address and email limit",
            ),
            (
                json!({ "status": "premium", "email": "", "emailLimit": 5 }),
                "Please enter both email address and email limit",
            ),
            (
                json!({ "status": "premium", "email": "ada@example.org", "emailLimit": 0 }),
                "Email limit must be a positive number",
            ),
            (
                json!({ "status": "premium", "email": "ada@example.org", "emailLimit": "2.5" }),
                "Email limit must be a positive number",
            ),
            (
                json!({ "status": "gold", "email": "ada@example.org" }),
                "Status must be free_trial or premium",
            ),
        ];
        for (body, message) in cases {
            let (status, answer) = admin.post_json("/api/admin/set-user-status", body).await;
            assert_eq!(
                (status, answer["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }
        let (status, body) = admin.get_json("/api/admin/user-status").await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Please enter a user email address")
            )
        );
        assert_eq!(
            admin
                .get_json("/api/admin/user-status?email=nobody@example.org")
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            ada.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN
        );

        // A free trial lets Ada in.
        let (status, body) = admin
            .post_json(
                "/api/admin/set-user-status",
                json!({ "email": "Ada@example.org ", "status": "free_trial" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            body["message"],
            "User ada@example.org has been set to free trial status"
        );
        assert_eq!(
            ada.get_json("/api/email-usage").await.1,
            json!({ "count": 0, "limit": 100, "planType": "free_trial" })
        );

        // Premium for 30 days with a limit given as text (the form's number field).
        let (status, body) = admin
            .post_json(
                "/api/admin/set-user-status",
                json!({ "email": "ada@example.org", "status": "premium", "emailLimit": "1000" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            body["message"],
            "User ada@example.org has been granted premium access with 1000 emails for 30 days"
        );
        let (status, lookup) = admin
            .get_json("/api/admin/user-status?email=ada@example.org")
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(lookup["emailsUsed"], 0);
        assert_eq!(lookup["user"]["subscriptionPlan"], "premium");
        assert_eq!(lookup["user"]["emailLimit"], 1000);
        assert_eq!(
            lookup["user"]["subscriptionEndsAt"],
            "2027-02-14T08:00:00.000Z"
        );

        // The grant ends after 30 days, at once, without waiting for the daily job.
        app.clock.advance(30 * DAY_MS);
        assert_eq!(
            ada.get_json("/api/auth/user").await.0,
            StatusCode::UNAUTHORIZED,
            "30-day sessions ended too"
        );
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        let (status, body) = ada.get_json("/api/email-usage").await;
        assert_eq!(
            (status, body["error"].as_str()),
            (StatusCode::FORBIDDEN, Some("account_inactive"))
        );

        // A grant to someone who never signed in is waiting for them.
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let (status, _) = admin
            .post_json(
                "/api/admin/set-user-status",
                json!({ "email": "grace@example.org", "status": "free_trial" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let grace = app.signed_in("grace", "grace@example.org", "Grace").await;
        assert_eq!(grace.get_json("/api/auth/user").await.1["hasAccess"], true);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn invite_codes_activate_once() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let (status, first) = admin
            .post_json("/api/admin/invites", json!({ "note": "for Ada" }))
            .await;
        assert_eq!(status, StatusCode::CREATED);
        let code = first["code"].as_str().unwrap().to_string();
        assert_eq!(first["note"], "for Ada");

        // Redeemed from the beta screen by a signed-in, inactive account.
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        let (status, body) = ada
            .post_json("/api/auth/redeem-invite", json!({ "code": "nope" }))
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("This invite code is not valid or has already been used")
            )
        );
        let (status, body) = ada
            .post_json(
                "/api/auth/redeem-invite",
                json!({ "code": code.to_lowercase() }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (
                body["user"]["subscriptionStatus"].as_str(),
                body["user"]["subscriptionPlan"].as_str()
            ),
            (Some("trial"), Some("free_trial"))
        );
        assert_eq!(ada.get_json("/api/email-usage").await.0, StatusCode::OK);

        // Used codes do nothing for the next person.
        let eve = app.signed_in("eve", "eve@example.org", "Eve").await;
        assert_eq!(
            eve.post_json("/api/auth/redeem-invite", json!({ "code": code }))
                .await
                .0,
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(
            eve.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            app.browser()
                .post_json("/api/auth/redeem-invite", json!({ "code": code }))
                .await
                .0,
            StatusCode::UNAUTHORIZED
        );

        // Or typed on the sign-in page and redeemed when the provider answers.
        let (_, second) = admin.post_json("/api/admin/invites", json!({})).await;
        app.google_person("joan", "joan@example.org", "Joan", "Clarke")
            .await;
        let joan = app.browser();
        let invite = second["code"].as_str().unwrap();
        let callback = joan
            .google_round_trip(&app, "code-joan", Some(invite))
            .await;
        assert_eq!(location(&callback), "/dashboard");
        assert_eq!(joan.get_json("/api/auth/user").await.1["hasAccess"], true);

        let response = admin.get("/api/admin/invites").await;
        assert_eq!(response.headers()["content-range"], "invites 0-1/2");
        let listed: Value = response.json().await.unwrap();
        assert_eq!(listed[0]["redeemedByEmail"], "joan@example.org");
        assert_eq!(listed[1]["redeemedByEmail"], "ada@example.org");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn local_sign_in_only_on_loopback_without_google() {
    each_backend(|test_db| async move {
        // Google configured: refused.
        let app = TestApp::start(test_db).await;
        let (status, body) = app
            .browser()
            .post_json("/auth/local", json!({ "email": "ada@example.org" }))
            .await;
        assert_eq!(
            (status, body["error"].as_str()),
            (StatusCode::FORBIDDEN, Some("local_sign_in_disabled"))
        );
        assert_eq!(
            app.browser().get_json("/api/auth/options").await.1["localSignIn"],
            false
        );
        let test_db = {
            app.server.abort();
            app.test_db
        };

        // No Google client and a loopback listener: offered, validated, and the account is still gated.
        let app = TestApp::start_with(test_db, |settings| settings.google.client_id.clear()).await;
        let browser = app.browser();
        assert_eq!(
            browser.get_json("/api/auth/options").await.1["localSignIn"],
            true
        );
        let (status, body) = browser
            .post_json("/auth/local", json!({ "email": "not-an-email" }))
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Please enter a valid email address")
            )
        );
        let (status, user) = browser
            .post_json(
                "/auth/local",
                json!({ "email": "ada@example.org", "firstName": " Ada " }),
            )
            .await;
        assert_eq!(
            (status, user["firstName"].as_str()),
            (StatusCode::OK, Some("Ada"))
        );
        assert_eq!(
            browser.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN
        );
        // The invite code typed with the local sign-in is redeemed, as with Google's; a wrong one leaves the
        // account on the beta screen, where it can be typed again.
        let admin = app
            .ctx
            .db
            .accounts()
            .find_user_by_email("ada@example.org")
            .await
            .unwrap()
            .unwrap();
        app.ctx
            .db
            .accounts()
            .insert_invite("LOCL-CODE-2345", None, admin.id, app.clock.now_ms())
            .await
            .unwrap();
        let eve = app.browser();
        let (status, _) = eve
            .post_json(
                "/auth/local",
                json!({ "email": "eve@example.org", "invite": "WRNG-CODE-2345" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            eve.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN
        );
        let (status, user) = eve
            .post_json(
                "/auth/local",
                json!({ "email": "eve@example.org", "invite": " locl-code-2345 " }),
            )
            .await;
        assert_eq!(
            (status, user["subscriptionStatus"].as_str()),
            (StatusCode::OK, Some("trial")),
            "{user}"
        );
        assert_eq!(eve.get_json("/api/email-usage").await.0, StatusCode::OK);
        assert_eq!(
            location(&browser.get("/auth/google").await),
            "/login?error=google_not_configured"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn invites_off_starts_new_accounts_on_a_trial() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| settings.auth.invite_only = false).await;
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        assert_eq!(
            ada.get_json("/api/email-usage").await.1["planType"],
            "free_trial"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn cross_site_and_non_json_writes_are_refused() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let foreign = admin
            .http
            .post(admin.url("/api/admin/invites"))
            .header("origin", "https://evil.example")
            .json(&json!({}));
        let (status, body) = {
            let r = admin.send(foreign).await;
            (r.status(), r.json::<Value>().await.unwrap())
        };
        assert_eq!(
            (status, body["error"].as_str()),
            (StatusCode::FORBIDDEN, Some("cross_origin"))
        );
        let own = admin
            .http
            .post(admin.url("/api/admin/invites"))
            .header("origin", app.base.as_str())
            .json(&json!({}));
        assert_eq!(admin.send(own).await.status(), StatusCode::CREATED);
        let form = admin
            .http
            .post(admin.url("/api/admin/invites"))
            .header("content-type", "text/plain")
            .body("note=x");
        assert_eq!(
            admin.send(form).await.status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        let broken = admin
            .http
            .post(admin.url("/api/admin/invites"))
            .header("content-type", "application/json")
            .body("{");
        let response = admin.send(broken).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            response.json::<Value>().await.unwrap()["error"],
            "invalid_body"
        );
        assert_eq!(
            admin
                .get_json("/api/admin/invites")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            1,
            "only the good request wrote"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_token_exchange_on_a_connection_the_provider_just_closed_is_sent_again_on_a_new_one() {
    each_backend(|test_db| async move {
        // A token endpoint that resets its first connection when a second request comes over it: what a server
        // does when it ends an idle keep-alive connection just as the client sends on it again.
        let endpoint = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let token_url = format!("http://{}/token", endpoint.local_addr().unwrap());
        let endpoint = tokio::spawn(token_endpoint_resetting_its_first_connection(endpoint));
        let app =
            TestApp::start_with(test_db, |settings| settings.google.token_url = token_url).await;
        app.google_person("ada", "ada@example.org", "Ada", "L")
            .await;
        for sign_in in 1..=2 {
            let callback = app
                .browser()
                .google_round_trip(&app, "code-ada", None)
                .await;
            assert_eq!(location(&callback), "/dashboard", "sign-in {sign_in}");
        }
        app.stop().await;
        endpoint.abort();
    })
    .await;
}

/// Answers every token request with ada's token; its first connection is reset at the second request over it.
async fn token_endpoint_resetting_its_first_connection(listener: tokio::net::TcpListener) {
    use tokio::io::AsyncWriteExt;
    let mut first = true;
    loop {
        let (mut stream, _) = listener.accept().await.unwrap();
        let resets = std::mem::replace(&mut first, false);
        tokio::spawn(async move {
            let mut answered = 0;
            while read_request(&mut stream).await {
                if resets && answered == 1 {
                    // Dropped with no linger: a reset, not an orderly close.
                    stream.set_zero_linger().unwrap();
                    return;
                }
                let body =
                    r#"{"access_token":"token-ada","token_type":"Bearer","expires_in":3599}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                );
                stream.write_all(answer.as_bytes()).await.unwrap();
                answered += 1;
            }
        });
    }
}

/// Reads one HTTP request (its head and a body of its Content-Length); false at the end of the stream.
async fn read_request(stream: &mut tokio::net::TcpStream) -> bool {
    use tokio::io::AsyncReadExt;
    let mut data = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        if let Some(end) = data.windows(4).position(|window| window == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&data[..end]).to_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .map_or(0, |value| value.trim().parse().unwrap());
            if data.len() >= end + 4 + length {
                return true;
            }
        }
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return false,
            Ok(read) => data.extend_from_slice(&buffer[..read]),
        }
    }
}
