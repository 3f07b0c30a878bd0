//! End-to-end tests of the HTTP API: the real router on 127.0.0.1:0 over a fresh database (SQLite, and PostgreSQL
//! with `TEST_DATABASE_URL`), signing in through a fake Google provider (wiremock) that checks every request.

use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use outreach_core::clock::{DAY_MS, ManualClock};
use outreach_core::testing::{DnsAnswer, TestDb, fake_dns};
use outreach_core::{Context, Settings};
use reqwest::StatusCode;
use reqwest::header::{LOCATION, SET_COOKIE};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

mod hardening;

const ADMIN: &str = "boss@example.org";
const CLIENT_ID: &str = "client-123.apps.example";
const CLIENT_SECRET: &str = "client-secret-xyz";

/// The app on a free port, its fake Google provider and a clock the test moves.
struct TestApp {
    base: String,
    clock: Arc<ManualClock>,
    google: MockServer,
    /// PKCE challenges the app sent to the provider; the token endpoint accepts only matching verifiers.
    challenges: Arc<Mutex<Vec<String>>>,
    test_db: TestDb,
    server: tokio::task::JoinHandle<()>,
    ctx: Context,
}

impl TestApp {
    async fn start(test_db: TestDb) -> Self {
        Self::start_with(test_db, |_| {}).await
    }

    async fn start_with(test_db: TestDb, configure: impl FnOnce(&mut Settings)) -> Self {
        let google = MockServer::start().await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut settings = Settings::default();
        settings.http.listen = listener.local_addr().unwrap();
        settings.auth.admin_emails = vec![ADMIN.into()];
        settings.google.client_id = CLIENT_ID.into();
        settings.google.client_secret = outreach_core::config::Secret::new(CLIENT_SECRET);
        settings.google.auth_url = format!("{}/authorize", google.uri());
        settings.google.token_url = format!("{}/token", google.uri());
        settings.google.userinfo_url = format!("{}/userinfo", google.uri());
        settings.security.secret_key = outreach_core::config::Secret::new("test-key-".repeat(8));
        // Directory businesses have real websites: tests read only their own fixture sites.
        settings.crawler.restrict_to_allow_hosts = true;
        // Senders of these tests are SMTP and IMAP servers on loopback, which an operator has to allow.
        let mut settings = outreach_core::testing::loopback_senders_allowed(settings);
        configure(&mut settings);
        let clock = ManualClock::at(1_800_000_000_000);
        let ctx = Context::new(test_db.db.clone(), settings, clock.clone());
        let state = outreach_api::AppState::new(ctx.clone()).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app =
            outreach_api::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
        let server = tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        let challenges = Arc::new(Mutex::new(Vec::new()));
        let app = TestApp {
            base,
            clock,
            google,
            challenges,
            test_db,
            server,
            ctx,
        };
        app.mount_token_endpoint().await;
        app
    }

    fn browser(&self) -> Browser {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser {
            http,
            base: self.base.clone(),
            cookies: Mutex::new(std::collections::BTreeMap::new()),
        }
    }

    /// The token endpoint: checks grant type, client credentials, redirect URI and the PKCE verifier, then
    /// answers `token-<code>` for codes starting with `code-`, and `invalid_grant` for anything else.
    async fn mount_token_endpoint(&self) {
        let challenges = self.challenges.clone();
        let redirect = format!("{}/auth/google/callback", self.base);
        let basic = base64::engine::general_purpose::STANDARD
            .encode(format!("{CLIENT_ID}:{CLIENT_SECRET}"));
        Mock::given(method("POST"))
            .and(path("/token"))
            .and(header("authorization", format!("Basic {basic}").as_str()))
            .and(move |request: &Request| {
                let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body).into_owned().collect();
                let field = |name: &str| form.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone());
                let verifier_matches = field("code_verifier").is_some_and(|verifier| {
                    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
                    challenges.lock().unwrap().contains(&challenge)
                });
                field("grant_type").as_deref() == Some("authorization_code")
                    && field("redirect_uri").as_deref() == Some(redirect.as_str())
                    && verifier_matches
            })
            .respond_with(|request: &Request| {
                let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body).into_owned().collect();
                let code = form.iter().find(|(key, _)| key == "code").map(|(_, v)| v.clone()).unwrap_or_default();
                match code.strip_prefix("code-") {
                    Some(person) => ResponseTemplate::new(200).set_body_json(json!({
                        "access_token": format!("token-{person}"), "token_type": "Bearer", "expires_in": 3599,
                        "scope": "openid email profile", "id_token": "not-used"
                    })),
                    None => ResponseTemplate::new(400)
                        .set_body_json(json!({ "error": "invalid_grant", "error_description": "Bad Request" })),
                }
            })
            .mount(&self.google)
            .await;
    }

    /// The userinfo answer for a person who signs in with `code-<person>`.
    async fn google_person(&self, person: &str, email: &str, given: &str, family: &str) {
        Mock::given(method("GET"))
            .and(path("/userinfo"))
            .and(header(
                "authorization",
                format!("Bearer token-{person}").as_str(),
            ))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "sub": format!("sub-{person}"), "email": email, "email_verified": true,
                "name": format!("{given} {family}"), "given_name": given, "family_name": family
            })))
            .mount(&self.google)
            .await;
    }

    /// Signs a new browser in through the provider and returns it.
    async fn signed_in(&self, person: &str, email: &str, given: &str) -> Browser {
        self.google_person(person, email, given, "Tester").await;
        let browser = self.browser();
        let callback = browser
            .google_round_trip(self, &format!("code-{person}"), None)
            .await;
        assert_eq!(location(&callback), "/dashboard");
        browser
    }

    async fn stop(self) {
        self.server.abort();
        self.test_db.cleanup().await;
    }
}

/// A browser: keeps its cookies (a cleared one is forgotten) and never follows redirects, so tests see them.
struct Browser {
    http: reqwest::Client,
    base: String,
    cookies: Mutex<std::collections::BTreeMap<String, String>>,
}

impl Browser {
    async fn send(&self, builder: reqwest::RequestBuilder) -> reqwest::Response {
        let jar = self
            .cookies
            .lock()
            .unwrap()
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ");
        let builder = if jar.is_empty() {
            builder
        } else {
            builder.header("cookie", jar)
        };
        let response = builder.send().await.unwrap();
        for value in response.headers().get_all(SET_COOKIE) {
            let text = value.to_str().unwrap();
            let (name, value) = text.split(';').next().unwrap().split_once('=').unwrap();
            let mut cookies = self.cookies.lock().unwrap();
            if value.is_empty() || text.contains("Max-Age=0") {
                cookies.remove(name);
            } else {
                cookies.insert(name.to_string(), value.to_string());
            }
        }
        response
    }
    /// The session cookie (`name=value`), if the browser has one.
    fn session(&self) -> Option<String> {
        self.cookies
            .lock()
            .unwrap()
            .get("outreach_session")
            .map(|value| format!("outreach_session={value}"))
    }
    /// Replaces the browser's session cookie with `cookie` (`name=value`).
    fn use_session(&self, cookie: &str) {
        let (name, value) = cookie.split_once('=').unwrap();
        self.cookies
            .lock()
            .unwrap()
            .insert(name.to_string(), value.to_string());
    }
    async fn get(&self, path: &str) -> reqwest::Response {
        self.send(self.http.get(self.url(path))).await
    }
    async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.send(self.http.post(self.url(path)).json(&body)).await
    }
    async fn get_json(&self, path: &str) -> (StatusCode, Value) {
        let response = self.get(path).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    async fn post_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.post(path, body).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    fn url(&self, path: &str) -> String {
        if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// `/auth/google` → the provider's consent URL (checked) → back to the callback with `code`.
    async fn google_round_trip(
        &self,
        app: &TestApp,
        code: &str,
        invite: Option<&str>,
    ) -> reqwest::Response {
        let start = match invite {
            Some(invite) => self.get(&format!("/auth/google?invite={invite}")).await,
            None => self.get("/auth/google").await,
        };
        assert_eq!(start.status(), StatusCode::SEE_OTHER);
        let consent = url::Url::parse(&location(&start)).unwrap();
        assert_eq!(
            consent.as_str().split('?').next().unwrap(),
            format!("{}/authorize", app.google.uri())
        );
        let query: std::collections::HashMap<String, String> =
            consent.query_pairs().into_owned().collect();
        assert_eq!(query["response_type"], "code");
        assert_eq!(query["client_id"], CLIENT_ID);
        assert_eq!(
            query["redirect_uri"],
            format!("{}/auth/google/callback", app.base)
        );
        assert_eq!(query["code_challenge_method"], "S256");
        let scopes: Vec<&str> = query["scope"].split(' ').collect();
        assert_eq!(scopes, ["openid", "email", "profile"]);
        app.challenges
            .lock()
            .unwrap()
            .push(query["code_challenge"].clone());
        self.get(&format!(
            "/auth/google/callback?code={code}&state={}",
            query["state"]
        ))
        .await
    }
}

fn location(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(LOCATION)
        .expect("a redirect")
        .to_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn google_sign_in_creates_an_inactive_account_behind_the_gate() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn provider_failures_lead_back_to_login_with_a_reason() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn each_sign_in_gets_a_new_session_and_sign_out_ends_it() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn administrators_are_active_and_alone_on_admin_endpoints() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn invite_codes_activate_once() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn local_sign_in_only_on_loopback_without_google() {
    for test_db in TestDb::all().await {
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
        assert_eq!(
            location(&browser.get("/auth/google").await),
            "/login?error=google_not_configured"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn invites_off_starts_new_accounts_on_a_trial() {
    for test_db in TestDb::all().await {
        let app = TestApp::start_with(test_db, |settings| settings.auth.invite_only = false).await;
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        assert_eq!(
            ada.get_json("/api/email-usage").await.1["planType"],
            "free_trial"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn cross_site_and_non_json_writes_are_refused() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn health_readiness_and_unknown_endpoints() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn unsubscribing_suppresses_an_address_once_and_is_rate_limited() {
    for test_db in TestDb::all().await {
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
    }
}

#[tokio::test]
async fn signed_unsubscribe_links_prefill_and_are_recorded_as_links() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let mut settings = Settings::default();
        settings.security.secret_key = outreach_core::config::Secret::new("test-key-".repeat(8));
        settings.http.public_url = app.base.clone();
        let link = outreach_core::links::unsubscribe_url(&settings, "grace@example.org");
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
            (StatusCode::OK, json!({ "email": "grace@example.org" }))
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
    }
}

#[tokio::test]
async fn the_instance_describes_itself_to_public_pages() {
    for test_db in TestDb::all().await {
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
        app.stop().await;
    }
}

/// Signs in `person` with an active account (a free trial granted by the administrator first).
async fn active(app: &TestApp, person: &str) -> Browser {
    let email = format!("{person}@example.org");
    app.ctx
        .db
        .set_subscription(
            &email,
            &outreach_core::accounts::Grant::FreeTrial
                .subscription(app.clock.now_ms(), &Default::default()),
            app.clock.now_ms(),
        )
        .await
        .unwrap();
    app.signed_in(person, &email, person).await
}

impl Browser {
    /// Polls a search answer until the search stops running.
    async fn search_to_the_end(&self, mut answer: Value) -> Value {
        let id = answer["searchId"].as_i64().expect("a search answer");
        for _ in 0..200 {
            if answer["status"] != "running" {
                return answer;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            answer = self
                .get_json(&format!("/api/businesses/search/{id}"))
                .await
                .1;
        }
        panic!("the search did not end: {answer}");
    }

    async fn put_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.send(self.http.put(self.url(path)).json(&body)).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    async fn delete_json(&self, path: &str) -> (StatusCode, Value) {
        let response = self.send(self.http.delete(self.url(path))).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    async fn upload(&self, path: &str, name: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
        let form = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
        let response = self
            .send(self.http.post(self.url(path)).multipart(form))
            .await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
}

use outreach_core::clock::Clock as _;

#[tokio::test]
async fn campaigns_accept_every_put_variant_and_stay_with_their_owner() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let eve = active(&app, "eve").await;

        let (status, body) = ada
            .post_json("/api/campaigns", json!({ "name": "   " }))
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Campaign name is required")
            )
        );
        let (status, created) = ada
            .post_json("/api/campaigns", json!({ "name": " Helsinki cafés " }))
            .await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(
            (
                created["name"].as_str(),
                created["status"].as_str(),
                created["category"].as_str()
            ),
            (Some("Helsinki cafés"), Some("draft"), Some("General"))
        );
        assert_eq!(
            (
                created["radius"].as_i64(),
                created["maxResults"].as_i64(),
                created["emailsSent"].as_i64()
            ),
            (Some(25), Some(50), Some(0))
        );
        let id = created["id"].as_i64().unwrap();
        let path = format!("/api/campaigns/{id}");

        let variants = [
            json!({ "name": "Cafés in Helsinki" }),
            json!({ "businessType": "cafe", "geographicArea": "online", "radius": 10, "maxResults": 120, "status": "searching" }),
            json!({ "businessIds": [7, 9], "status": "businesses_selected" }),
            json!({ "status": "template_selected" }),
            json!({ "aiEducationText": "We bake sourdough.", "aiEducationFiles": [] }),
            json!({ "emailFromName": "Ada Baker", "emailFromAddress": "ada@bakery.example" }),
        ];
        for variant in variants {
            let (status, body) = ada.put_json(&path, variant.clone()).await;
            assert_eq!(status, StatusCode::OK, "{variant}: {body}");
        }
        let (_, campaign) = ada.get_json(&path).await;
        assert_eq!(campaign["name"], "Cafés in Helsinki");
        assert_eq!(
            (
                campaign["businessType"].as_str(),
                campaign["geographicArea"].as_str()
            ),
            (Some("cafe"), Some("online"))
        );
        assert_eq!(
            (campaign["radius"].as_i64(), campaign["maxResults"].as_i64()),
            (Some(10), Some(120))
        );
        assert_eq!(
            (campaign["businessIds"].clone(), campaign["status"].as_str()),
            (json!([7, 9]), Some("template_selected"))
        );
        assert_eq!(
            (
                campaign["aiEducationText"].as_str(),
                campaign["aiEducationFiles"].clone()
            ),
            (Some("We bake sourdough."), json!([]))
        );
        assert_eq!(
            (
                campaign["emailFromName"].as_str(),
                campaign["emailFromAddress"].as_str()
            ),
            (Some("Ada Baker"), Some("ada@bakery.example"))
        );

        for (bad, message) in [
            (
                json!({ "radius": 0 }),
                "Search radius must be between 1 and 100 miles",
            ),
            (
                json!({ "maxResults": 500 }),
                "Max results must be between 1 and 200",
            ),
            (
                json!({ "status": "launched" }),
                "Unknown campaign status: launched",
            ),
            (json!({ "name": "" }), "Campaign name is required"),
        ] {
            let (status, body) = ada.put_json(&path, bad).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }
        assert_eq!(
            ada.put_json(&path, json!({ "colour": "red" })).await.0,
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown fields"
        );

        // Another user: 404 everywhere, and nothing changes.
        assert_eq!(eve.get_json(&path).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            eve.put_json(&path, json!({ "name": "Mine now" })).await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(eve.delete_json(&path).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.get_json("/api/campaigns").await.1, json!([]));
        assert_eq!(ada.get_json(&path).await.1, campaign);

        assert_eq!(
            ada.get_json("/api/campaigns")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            1
        );
        assert_eq!(ada.delete_json(&path).await.0, StatusCode::OK);
        assert_eq!(ada.get_json(&path).await.0, StatusCode::NOT_FOUND);
        app.stop().await;
    }
}

#[tokio::test]
async fn education_files_are_read_checked_and_kept_by_name() {
    use outreach_core::education::fixtures;
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Bakery" }))
            .await;
        let files = format!("/api/campaigns/{}/education-files", campaign["id"]);

        let (status, pdf) = ada
            .upload(
                &files,
                "about.pdf",
                fixtures::pdf(&["Nordic Bakery has baked since 1989."]),
            )
            .await;
        assert_eq!(
            (status, pdf["name"].as_str()),
            (StatusCode::OK, Some("about.pdf")),
            "{pdf}"
        );
        assert!(pdf["characters"].as_i64().unwrap() > 20);
        let (status, _) = ada
            .upload(
                &files,
                "offer.docx",
                fixtures::docx(&["Free delivery over 20 loaves."]),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = ada
            .upload(&files, "notes.txt", b"Organic flour only.".to_vec())
            .await;
        assert_eq!(status, StatusCode::OK);

        for (name, bytes, message) in [
            (
                "logo.png",
                b"png".to_vec(),
                "logo.png is not a supported file type. Please upload PDF or text files only.",
            ),
            (
                "huge.pdf",
                vec![b'x'; 10 * 1024 * 1024 + 1],
                "huge.pdf is larger than 10MB. Please choose a smaller file.",
            ),
            (
                "old.doc",
                b"doc".to_vec(),
                "old.doc is a legacy Word .doc file, which cannot be read. Please save it as .docx or PDF and upload it again.",
            ),
        ] {
            let (status, body) = ada.upload(&files, name, bytes).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }
        let path = format!("/api/campaigns/{}", campaign["id"]);
        assert_eq!(
            ada.get_json(&path).await.1["aiEducationFiles"],
            json!(["about.pdf", "offer.docx", "notes.txt"])
        );

        let (status, body) = ada.put_json(&path, json!({ "aiEducationText": "Notes", "aiEducationFiles": ["about.pdf", "ghost.pdf"] })).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("ghost.pdf has not been uploaded")
            )
        );
        assert_eq!(
            ada.get_json(&path).await.1["aiEducationFiles"]
                .as_array()
                .unwrap()
                .len(),
            3,
            "nothing changed"
        );
        let (status, saved) = ada
            .put_json(
                &path,
                json!({ "aiEducationText": "Notes", "aiEducationFiles": ["about.pdf"] }),
            )
            .await;
        assert_eq!(
            (status, saved["aiEducationFiles"].clone()),
            (StatusCode::OK, json!(["about.pdf"]))
        );

        let eve = active(&app, "eve").await;
        assert_eq!(
            eve.upload(&files, "x.txt", b"mine".to_vec()).await.0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn templates_are_sanitised_validated_previewed_and_owned() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let anonymous = app.browser();
        let (status, body) = anonymous
            .post_json("/api/email-templates", json!({ "name": "x" }))
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("Authentication required"))
        );

        let ada = active(&app, "ada").await;
        let template = json!({
            "name": "Intro", "subject": "Fresh bread for {{businessName}}", "objective": "Lead Generation", "tone": "friendly",
            "emailSignature": "Ada",
            "body": "<p onmouseover=\"steal()\">Hi [business name] in {{city | your city}}!<script>alert(1)</script><img src=x onerror=alert(1)> <a href=\"https://bakery.example\">menu</a></p>"
        });
        let (status, created) = ada
            .post_json("/api/email-templates", template.clone())
            .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let body = created["body"].as_str().unwrap();
        for gone in ["<script", "onerror", "onmouseover", "<img"] {
            assert!(!body.contains(gone), "{gone} survived: {body}");
        }
        assert!(
            body.contains(r#"<a href="https://bakery.example" rel="noopener noreferrer">menu</a>"#),
            "{body}"
        );
        let id = created["id"].as_i64().unwrap();

        for (change, message) in [
            (json!({ "name": " " }), "Template name is required"),
            (json!({ "subject": "" }), "Subject is required"),
            (
                json!({ "body": "<script>only</script>" }),
                "Email body is required",
            ),
            (
                json!({ "tone": "grumpy" }),
                "Tone must be professional, friendly or casual",
            ),
            (
                json!({ "subject": "Hi {{firstName}}" }),
                "Unknown variable {{firstName}}: use {{businessName}}, {{city}}, {{website}} or {{category}}",
            ),
        ] {
            let mut bad = template.clone();
            bad.as_object_mut()
                .unwrap()
                .extend(change.as_object().unwrap().clone());
            let (status, body) = ada.post_json("/api/email-templates", bad).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }

        let (status, preview) = ada
            .post_json(
                &format!("/api/email-templates/{id}/preview"),
                json!({ "businessName": "Café Ursula" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(preview["subject"], "Fresh bread for Café Ursula");
        assert!(
            preview["body"]
                .as_str()
                .unwrap()
                .contains("Hi Café Ursula in your city!")
        );
        assert_eq!(preview["missing"], json!([]));

        // The editor's PUT (name, subject, body) keeps objective and tone.
        let (status, updated) = ada.put_json(&format!("/api/email-templates/{id}"), json!({ "name": "Intro v2", "subject": "Bread", "body": "<p><strong>Hi</strong></p>" })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (
                updated["name"].as_str(),
                updated["tone"].as_str(),
                updated["objective"].as_str()
            ),
            (Some("Intro v2"), Some("friendly"), Some("Lead Generation"))
        );

        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json("/api/email-templates").await.1, json!([]));
        assert_eq!(
            eve.put_json(&format!("/api/email-templates/{id}"), template.clone())
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.post_json(&format!("/api/email-templates/{id}/preview"), json!({}))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.delete_json(&format!("/api/email-templates/{id}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            ada.get_json("/api/email-templates").await.1[0]["name"],
            "Intro v2",
            "unchanged by eve"
        );
        assert_eq!(
            ada.delete_json(&format!("/api/email-templates/{id}"))
                .await
                .0,
            StatusCode::OK
        );
        assert_eq!(ada.get_json("/api/email-templates").await.1, json!([]));
        app.stop().await;
    }
}

#[tokio::test]
async fn follow_up_sequences_grow_shrink_reorder_and_refuse_bad_input_whole() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let (_, template) = ada
            .post_json(
                "/api/email-templates",
                json!({ "name": "Intro", "subject": "Hi", "body": "<p>Hi</p>" }),
            )
            .await;
        let id = template["id"].as_i64().unwrap();
        let follow_up = |n: i64, delay: i64| json!({ "subject": format!("Follow {n}"), "body": format!("<p>Body {n}</p>"), "delayDays": delay });

        let (status, first) = ada
            .post_json(
                "/api/follow-up-templates",
                json!({ "mainTemplateId": id, "subject": "Follow 1", "body": "<p>Body 1</p>" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(
            (
                first["name"].as_str(),
                first["delayDays"].as_i64(),
                first["sequenceNumber"].as_i64(),
                first["tone"].as_str()
            ),
            (
                Some("Follow-up Email #1"),
                Some(3),
                Some(1),
                Some("professional")
            )
        );
        let first_id = first["id"].as_i64().unwrap();

        let sync = format!("/api/follow-up-templates/sequence/{id}");
        let (status, four) = ada
            .put_json(
                &sync,
                json!([
                    follow_up(1, 2),
                    follow_up(2, 3),
                    follow_up(3, 5),
                    follow_up(4, 7)
                ]),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{four}");
        assert_eq!(four.as_array().unwrap().len(), 4);
        assert_eq!(
            four[0]["id"].as_i64(),
            Some(first_id),
            "updated by position"
        );
        assert_eq!(four[3]["name"], "Follow-up Email #4");

        let (_, two) = ada
            .put_json(&sync, json!([follow_up(2, 3), follow_up(1, 2)]))
            .await;
        let subjects: Vec<&str> = two
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["subject"].as_str().unwrap())
            .collect();
        assert_eq!(subjects, ["Follow 2", "Follow 1"], "shrunk and reordered");
        assert_eq!(
            (
                two[0]["sequenceNumber"].as_i64(),
                two[1]["sequenceNumber"].as_i64()
            ),
            (Some(1), Some(2))
        );

        for bad in [
            json!([follow_up(1, 8)]),
            json!([follow_up(1, 0)]),
            json!([{ "subject": "", "body": "<p>x</p>" }]),
        ] {
            let (status, body) = ada.put_json(&sync, bad).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some(
                        "Validation Error: Please fill in all fields for each follow-up email and ensure delay days are between 1-7"
                    )
                )
            );
        }
        let five: Vec<Value> = (1..=5).map(|n| follow_up(n, 1)).collect();
        assert_eq!(
            ada.put_json(&sync, json!(five)).await.0,
            StatusCode::UNPROCESSABLE_ENTITY
        );
        let list = format!("/api/follow-up-templates/{id}");
        assert_eq!(
            ada.get_json(&list).await.1,
            two,
            "refused saves changed nothing"
        );

        let second = two[1]["id"].as_i64().unwrap();
        let (status, edited) = ada
            .put_json(
                &format!("/api/follow-up-templates/{second}"),
                json!({ "subject": "Edited", "body": "<p>New</p>", "delayDays": 6 }),
            )
            .await;
        assert_eq!(
            (
                status,
                edited["subject"].as_str(),
                edited["sequenceNumber"].as_i64()
            ),
            (StatusCode::OK, Some("Edited"), Some(2))
        );

        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json(&list).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            eve.put_json(&sync, json!([])).await.0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.put_json(
                &format!("/api/follow-up-templates/{second}"),
                follow_up(1, 1)
            )
            .await
            .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.delete_json(&format!("/api/follow-up-templates/{second}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.post_json(
                "/api/follow-up-templates",
                json!({ "mainTemplateId": id, "subject": "x", "body": "<p>x</p>" })
            )
            .await
            .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(ada.get_json(&list).await.1.as_array().unwrap().len(), 2);

        assert_eq!(
            ada.delete_json(&format!("/api/follow-up-templates/{second}"))
                .await
                .0,
            StatusCode::OK
        );
        assert_eq!(
            ada.put_json(&sync, json!([])).await.1,
            json!([]),
            "an empty sequence removes them all"
        );
        app.stop().await;
    }
}

/// Runs the job workers until the returned sender is dropped or sent to.
fn start_workers(app: &TestApp) -> tokio::sync::oneshot::Sender<()> {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(outreach_worker::run(app.ctx.clone(), async move {
        stopped.await.ok();
    }));
    stop
}

fn brief() -> Value {
    json!({
        "templateName": "Intro", "objective": "Partnership Proposal", "serviceDescription": "weekly sourdough deliveries",
        "valueProposition": "your shelves stay full", "yourAsk": "Shall we try one week", "promotionalUrl": "https://bakery.example",
        "adjustments": "", "tone": "friendly", "emailSignature": "Ada\nNordic Bakery", "aiEducationText": "", "aiEducationFiles": []
    })
}

#[tokio::test]
async fn the_offline_writer_drafts_from_the_brief_and_the_campaign_education() {
    use outreach_core::education::fixtures;
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;

        for (field, value, message) in [
            (
                "serviceDescription",
                json!(""),
                "Service description is required",
            ),
            ("emailSignature", json!(" "), "Email signature is required"),
            (
                "promotionalUrl",
                json!("not a url"),
                "Please enter a valid URL",
            ),
        ] {
            let mut bad = brief();
            bad[field] = value;
            let (status, body) = ada.post_json("/api/emails/generate", bad).await;
            assert_eq!(
                (status, body["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }

        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Bakery" }))
            .await;
        let files = format!("/api/campaigns/{}/education-files", campaign["id"]);
        ada.upload(
            &files,
            "about.pdf",
            fixtures::pdf(&["Nordic Bakery has baked since 1989."]),
        )
        .await;
        let mut request = brief();
        request["campaignId"] = campaign["id"].clone();
        request["aiEducationFiles"] = json!(["about.pdf"]);
        let (status, draft) = ada.post_json("/api/emails/generate", request.clone()).await;
        assert_eq!(status, StatusCode::OK, "{draft}");
        assert_eq!(draft["writer"], "offline");
        assert_eq!(
            draft["subject"],
            "A partnership idea: weekly sourdough deliveries"
        );
        let body = draft["body"].as_str().unwrap();
        for part in [
            "weekly sourdough deliveries",
            "your shelves stay full",
            "Shall we try one week",
            "https://bakery.example",
            "since 1989",
            "Nordic Bakery",
        ] {
            assert!(body.contains(part), "{part} missing: {body}");
        }
        assert_eq!(
            (
                draft["estimatedOpenRate"].as_f64(),
                draft["estimatedReplyRate"].as_f64(),
                draft["ratesSource"].as_str()
            ),
            (Some(33.0), Some(7.0), Some("baseline"))
        );

        request["adjustments"] = json!("shorter please");
        request["previous"] = json!({ "subject": draft["subject"], "body": draft["body"] });
        let (_, adjusted) = ada.post_json("/api/emails/generate", request.clone()).await;
        assert_eq!(adjusted["notes"], json!(["made shorter"]));
        assert!(!adjusted["body"].as_str().unwrap().contains("1989"));

        let eve = active(&app, "eve").await;
        assert_eq!(
            eve.post_json("/api/emails/generate", request).await.0,
            StatusCode::NOT_FOUND,
            "another user's campaign"
        );
        let generation = draft["generationId"].as_i64().unwrap();
        assert_eq!(
            eve.get_json(&format!("/api/emails/generate/{generation}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            ada.get_json(&format!("/api/emails/generate/{generation}"))
                .await
                .1["subject"],
            draft["subject"]
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn a_refused_ai_key_reaches_the_composer_as_ai_service_unavailable() {
    for test_db in TestDb::all().await {
        let provider = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/chat/completions"))
            .respond_with(ResponseTemplate::new(401))
            .mount(&provider)
            .await;
        let uri = provider.uri();
        let app = TestApp::start_with(test_db, |settings| {
            settings.ai.provider = "openai".into();
            settings.ai.base_url = uri;
            settings.ai.api_key = outreach_core::config::Secret::new("sk-revoked");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (status, body) = ada.post_json("/api/emails/generate", brief()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("AI service unavailable"),
            "{body}"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn local_searches_run_in_chunks_on_the_offline_directory() {
    let extract = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/osm/Helsinki.osm.pbf"
    );
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        outreach_core::directory::import_osm(&app.ctx.db, std::path::Path::new(extract), 1)
            .await
            .unwrap();
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Cafés" }))
            .await;

        for (body, message) in [
            (json!({}), "Search type is required"),
            (
                json!({ "searchType": "local", "geographicArea": "Helsinki", "radius": 5 }),
                "Business type is required",
            ),
            (
                json!({ "searchType": "local", "businessType": "cafe", "radius": 5 }),
                "Geographic area is required",
            ),
            (
                json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki" }),
                "Search radius is required",
            ),
            (
                json!({ "searchType": "online", "topics": "bread" }),
                "Online business type is required",
            ),
            (
                json!({ "searchType": "online", "onlineBusinessType": "podcasters" }),
                "Topics are required",
            ),
        ] {
            let (status, answer) = ada.post_json("/api/businesses/search", body).await;
            assert_eq!(
                (status, answer["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }

        let request = json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "maxResults": 30, "campaignId": campaign["id"] });
        let (status, first_chunk) = ada
            .post_json("/api/businesses/search", request.clone())
            .await;
        // The answer comes with the first chunk; the rest is polled, with progress.
        assert!(
            matches!(status, StatusCode::OK | StatusCode::ACCEPTED),
            "{first_chunk}"
        );
        assert!(first_chunk["chunksDone"].as_i64().unwrap() >= 1);
        assert!(first_chunk["businesses"].as_array().unwrap().len() >= 25);
        let result = ada.search_to_the_end(first_chunk).await;
        assert_eq!(
            (
                result["status"].as_str(),
                result["chunksTotal"].as_i64(),
                result["chunksDone"].as_i64()
            ),
            (Some("complete"), Some(2), Some(2))
        );
        let businesses = result["businesses"].as_array().unwrap();
        assert_eq!(businesses.len(), 30, "25 + 5 across two chunks");
        let ids: std::collections::HashSet<i64> = businesses
            .iter()
            .map(|b| b["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids.len(), 30, "no business twice");
        assert_eq!(businesses[0]["provenance"]["provider"], "directory");
        assert!(
            businesses[0]["provenance"]["sourceUrl"]
                .as_str()
                .unwrap()
                .starts_with("https://www.openstreetmap.org/")
        );
        assert!(
            result["attribution"]
                .as_str()
                .unwrap()
                .contains("OpenStreetMap")
        );

        let (_, updated) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        assert_eq!(
            (
                updated["status"].as_str(),
                updated["geographicArea"].as_str(),
                updated["radius"].as_i64(),
                updated["maxResults"].as_i64()
            ),
            (Some("searching"), Some("Helsinki"), Some(1), Some(30))
        );

        let (_, logs) = ada.get_json("/api/search-logs").await;
        let logs = logs.as_array().unwrap();
        assert_eq!(logs.len(), 2);
        let (second, first) = (&logs[0], &logs[1]);
        assert_eq!(
            (
                first["chunkNumber"].as_i64(),
                first["businessesFound"].as_i64(),
                first["excludedItems"].as_str()
            ),
            (Some(1), Some(25), Some(""))
        );
        assert_eq!(
            (
                second["chunkNumber"].as_i64(),
                second["businessesFound"].as_i64(),
                second["maxResults"].as_i64()
            ),
            (Some(2), Some(5), Some(5))
        );
        assert_eq!(
            second["excludedItems"]
                .as_str()
                .unwrap()
                .split(", ")
                .count(),
            25,
            "chunk 2 excluded chunk 1's finds"
        );
        assert_eq!(first["searchTerm"], "cafe in Helsinki");
        assert!(first["query"].as_str().unwrap().contains("amenity=cafe"));
        assert_eq!(first["businessData"].as_array().unwrap().len(), 25);

        // The same search again finds the same businesses without duplicating them.
        let (_, again) = ada.post_json("/api/businesses/search", request).await;
        let again = ada.search_to_the_end(again).await;
        assert_eq!(again["businesses"].as_array().unwrap().len(), 30);
        assert_eq!(
            ada.get_json("/api/businesses")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            30
        );
        assert_eq!(
            ada.get_json("/api/businesses/recent")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            30
        );

        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Nowhere-upon-Nothing", "radius": 5 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .starts_with("Nowhere-upon-Nothing was not found in the offline directory"),
            "{failed}"
        );
        // The gazetteer knows Austin, the Helsinki extract has nothing there: the message says what to import.
        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Austin, TX", "radius": 5 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            failed["message"],
            "No businesses near Austin, TX are in the offline directory. Import an OpenStreetMap extract that covers it.",
        );
        let (status, online) = ada.post_json("/api/businesses/search", json!({ "searchType": "online", "onlineBusinessType": "podcasters", "topics": "baking" })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            online["message"]
                .as_str()
                .unwrap()
                .starts_with("Online searches need the AI web search"),
            "{online}"
        );

        let eve = active(&app, "eve").await;
        let search_id = result["searchId"].as_i64().unwrap();
        assert_eq!(
            eve.get_json(&format!("/api/businesses/search/{search_id}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.post_json(
                &format!("/api/businesses/search/{search_id}/cancel"),
                json!({})
            )
            .await
            .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(eve.get_json("/api/businesses").await.1, json!([]));
        assert_eq!(eve.get_json("/api/search-logs").await.1, json!([]));
        let other_campaign = json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "campaignId": campaign["id"] });
        assert_eq!(
            eve.post_json("/api/businesses/search", other_campaign)
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn lead_csv_imports_skip_duplicates_and_report_bad_rows() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let file = "name,email,website,phone,city\nCafé Ursula,hello@ursula.fi,https://www.ursula.fi,+358 9 652 817,Helsinki\n,nobody@x.fi,,,\nKahvila,bad-email,,,\nUrsula again,,ursula.fi,,\n\
                    Acme Sales,anna@acme.test,https://acme.test,,\nAcme Support,bob@acme.test,https://acme.test/support,,\n\
                    Acme Sales again,ANNA@acme.test,acme.test,,\n";
        let (status, result) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                file.as_bytes().to_vec(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{result}");
        // Two people of one company are two leads; the same address on the same site is one.
        assert_eq!(
            (result["imported"].as_i64(), result["skipped"].as_i64()),
            (Some(3), Some(4)),
            "{result}"
        );
        assert_eq!(
            result["errors"],
            json!([{ "line": 3, "message": "name is required" }, { "line": 4, "message": "bad-email is not a valid email address" }])
        );
        assert_eq!(
            result["duplicates"],
            json!([
                { "line": 5, "message": "already in your businesses as Café Ursula" },
                { "line": 8, "message": "already in your businesses as Acme Sales" }
            ])
        );
        // Newest first: the file's first row is last.
        let ursula = result["businesses"].as_array().unwrap().last().unwrap();
        assert_eq!(ursula["provenance"]["provider"], "import");
        assert_eq!(ursula["email"], "hello@ursula.fi");

        let (status, body) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                b"email\na@b.co\n".to_vec(),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body["message"].as_str().unwrap().contains("name column"));
        assert_eq!(
            ada.get_json("/api/businesses")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            3,
            "a refused file imports nothing"
        );

        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json("/api/businesses").await.1, json!([]));
        app.stop().await;
    }
}

#[tokio::test]
async fn imported_businesses_are_enriched_from_their_website() {
    use axum::response::Html;
    let site = axum::Router::new()
        .route("/", axum::routing::get(|| async { Html(r#"<a href="/contact">Contact</a><a href="https://www.instagram.com/nordicbakery/">ig</a>"#) }))
        .route("/contact", axum::routing::get(|| async { Html("<p>Old: old@closed-bakery.example. Orders: orders [at] nordic-bakery.fi</p>") }));
    // A second site on another loopback address, so the two websites are different businesses.
    let no_mail_site = axum::Router::new().route(
        "/",
        axum::routing::get(|| async { Html("<p>Write to info@nomail.example</p>") }),
    );
    let no_mail_listener = tokio::net::TcpListener::bind("127.0.0.2:0").await.unwrap();
    let no_mail_host = format!(
        "127.0.0.2:{}",
        no_mail_listener.local_addr().unwrap().port()
    );
    tokio::spawn(async move { axum::serve(no_mail_listener, no_mail_site).await.unwrap() });
    let dns = outreach_core::testing::fake_dns(vec![
        (
            "nordic-bakery.fi",
            outreach_core::testing::DnsAnswer::Exchanges(vec!["mx.nordic-bakery.fi."]),
        ),
        ("nomail.example", outreach_core::testing::DnsAnswer::NullMx),
    ])
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let site_host = format!("127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, site).await.unwrap() });

    for test_db in TestDb::all().await {
        let allowed = vec![site_host.clone(), no_mail_host.clone()];
        let app = TestApp::start_with(test_db, move |settings| {
            settings.crawler.allow_hosts = allowed;
            settings.crawler.dns_servers = vec![dns.to_string()];
        })
        .await;
        let ada = active(&app, "ada").await;
        // The last site is loopback too, but not allowed: the crawler refuses it.
        let file = format!(
            "name,website\nNordic Bakery,http://{site_host}/\nNo Mail Cafe,http://{no_mail_host}/\nSneaky,http://localhost:9/\n"
        );
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", file.into_bytes())
            .await;
        let statuses: Vec<&str> = imported["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["emailStatus"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["pending", "pending", "pending"], "{imported}");

        outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(60))
            .await
            .unwrap();
        let (_, list) = ada.get_json("/api/businesses").await;
        let bakery = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "Nordic Bakery")
            .unwrap();
        assert_eq!(
            (bakery["email"].as_str(), bakery["emailStatus"].as_str()),
            (Some("orders@nordic-bakery.fi"), Some("found")),
            "{bakery}"
        );
        assert!(
            bakery["emailSource"]
                .as_str()
                .unwrap()
                .ends_with("/contact")
        );
        // The first address's domain does not exist; the second takes mail, so it is the one kept.
        assert_eq!(bakery["emailVerdict"], "deliverable");
        let no_mail = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "No Mail Cafe")
            .unwrap();
        // A verdict never discards an address: the only one found stays, marked.
        assert_eq!(
            (no_mail["email"].as_str(), no_mail["emailVerdict"].as_str()),
            (Some("info@nomail.example"), Some("no_mx")),
            "{no_mail}"
        );
        assert_eq!(
            bakery["socialMedia"],
            json!([{ "platform": "instagram", "handle": "nordicbakery", "url": "https://www.instagram.com/nordicbakery/" }])
        );
        let sneaky = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "Sneaky")
            .unwrap();
        assert_eq!(
            (sneaky["email"].clone(), sneaky["emailStatus"].as_str()),
            (Value::Null, Some("not_found"))
        );

        // The on-demand social lookup reads the site again.
        let _workers = start_workers(&app);
        let id = bakery["id"].as_i64().unwrap();
        let (status, social) = ada
            .post_json(&format!("/api/businesses/{id}/social-media"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{social}");
        assert_eq!(social["socialMedia"][0]["platform"], "instagram");
        let eve = active(&app, "eve").await;
        assert_eq!(
            eve.post_json(&format!("/api/businesses/{id}/social-media"), json!({}))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn searches_use_openstreetmap_online_when_configured_and_fall_back_to_the_directory() {
    for test_db in TestDb::all().await {
        let osm = MockServer::start().await;
        Mock::given(method("GET")).and(path("/search")).and(wiremock::matchers::query_param("q", "Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([{ "lat": "60.1674881", "lon": "24.9427473", "display_name": "Helsinki, Finland" }])))
            .mount(&osm).await;
        Mock::given(method("GET"))
            .and(path("/search"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .mount(&osm)
            .await;
        Mock::given(method("POST")).and(path("/api/interpreter"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "elements": [
                { "type": "node", "id": 11, "lat": 60.1680, "lon": 24.9430, "tags": { "amenity": "cafe", "name": "Online Café", "website": "https://online-cafe.example" } },
                { "type": "way", "id": 12, "center": { "lat": 60.1690, "lon": 24.9440 }, "tags": { "amenity": "cafe", "name": "Way Café" } }
            ]})))
            .mount(&osm).await;
        let uri = osm.uri();
        let app = TestApp::start_with(test_db, move |settings| {
            settings.search.providers = vec!["osm".into(), "directory".into()];
            settings.search.nominatim_url = uri.clone();
            settings.search.overpass_url = uri;
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (status, result) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "maxResults": 10 })).await;
        assert_eq!(status, StatusCode::OK, "{result}");
        let names: Vec<&str> = result["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Online Café", "Way Café"]);
        assert_eq!(result["businesses"][0]["provenance"]["provider"], "osm");
        assert_eq!(
            result["businesses"][1]["provenance"]["sourceUrl"],
            "https://www.openstreetmap.org/way/12"
        );

        // Nominatim does not know the area: the offline directory is asked next (and it is empty here).
        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Nowhere", "radius": 1 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .contains("offline directory"),
            "{failed}"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn searches_use_google_places_and_online_searches_use_the_ai_web_search() {
    for test_db in TestDb::all().await {
        let fake = MockServer::start().await;
        let is_text_query = |query: &'static str| {
            move |request: &Request| {
                serde_json::from_slice::<Value>(&request.body)
                    .is_ok_and(|body| body["textQuery"] == query)
            }
        };
        Mock::given(method("POST")).and(path("/v1/places:searchText")).and(header("X-Goog-Api-Key", "places-key"))
            .and(is_text_query("Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
                { "displayName": { "text": "Helsinki" }, "location": { "latitude": 60.1699, "longitude": 24.9384 } }
            ]})))
            .mount(&fake).await;
        Mock::given(method("POST")).and(path("/v1/places:searchText")).and(header("X-Goog-Api-Key", "places-key"))
            .and(is_text_query("bakery in Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
                { "id": "G1", "displayName": { "text": "Google Bakery" }, "formattedAddress": "Mannerheimintie 1, Helsinki",
                  "internationalPhoneNumber": "+358 9 111111", "location": { "latitude": 60.1700, "longitude": 24.9390 },
                  "googleMapsUri": "https://maps.google.com/?cid=1" }
            ]})))
            .mount(&fake).await;
        Mock::given(method("POST")).and(path("/v1/responses")).and(header("authorization", "Bearer sk-test"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "output": [
                { "type": "web_search_call", "id": "ws_1", "status": "completed" },
                { "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": json!({ "businesses": [
                    { "name": "Crumb Cast", "website": "https://crumbcast.example", "email": "hello@crumbcast.example", "phone": null,
                      "address": null, "city": null, "category": "Podcast", "sourceUrl": "https://crumbcast.example/about" }
                ]}).to_string() }] }
            ]})))
            .mount(&fake).await;
        let uri = fake.uri();
        let app = TestApp::start_with(test_db, move |settings| {
            settings.search.providers = vec!["google".into(), "directory".into()];
            settings.search.google_places_url = uri.clone();
            settings.search.google_places_api_key =
                outreach_core::config::Secret::new("places-key");
            settings.ai.provider = "openai".into();
            settings.ai.base_url = format!("{uri}/v1");
            settings.ai.api_key = outreach_core::config::Secret::new("sk-test");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;

        let (status, local) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "bakery", "geographicArea": "Helsinki", "radius": 5, "maxResults": 10 })).await;
        assert_eq!(status, StatusCode::OK, "{local}");
        assert_eq!(local["status"], "complete", "{local}");
        let bakery = &local["businesses"][0];
        assert_eq!(bakery["name"], "Google Bakery");
        assert_eq!(bakery["phone"], "+358 9 111111");
        assert_eq!(bakery["provenance"]["provider"], "google");
        assert_eq!(
            bakery["provenance"]["sourceUrl"],
            "https://maps.google.com/?cid=1"
        );
        assert_eq!(local["attribution"], "Google Maps");

        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Podcasts" }))
            .await;
        let (status, online) = ada.post_json("/api/businesses/search", json!({ "searchType": "online", "onlineBusinessType": "podcasters", "topics": ["sourdough", "baking"], "campaignId": campaign["id"] })).await;
        assert_eq!(status, StatusCode::OK, "{online}");
        assert_eq!(online["status"], "complete", "{online}");
        let creator = &online["businesses"][0];
        assert_eq!(
            (creator["name"].as_str(), creator["email"].as_str()),
            (Some("Crumb Cast"), Some("hello@crumbcast.example"))
        );
        assert_eq!(creator["provenance"]["provider"], "ai_web_search");
        assert_eq!(
            creator["provenance"]["query"],
            "podcasters about sourdough, baking"
        );
        let (_, campaign) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        assert_eq!(campaign["geographicArea"], "online", "{campaign}");

        let (_, logs) = ada.get_json("/api/search-logs").await;
        let online_log = logs
            .as_array()
            .unwrap()
            .iter()
            .find(|log| log["searchType"] == "online")
            .unwrap();
        let query: Value = serde_json::from_str(online_log["query"].as_str().unwrap()).unwrap();
        assert_eq!(query["provider"], "ai_web_search");
        assert_eq!(query["topics"], "sourdough, baking");
        assert!(
            online_log["rawResponse"]
                .as_str()
                .unwrap()
                .contains("crumbcast.example/about"),
            "{online_log}"
        );
        app.stop().await;
    }
}

/// Launches and polls the campaign's progress until it completes or pauses.
async fn launch_and_finish(browser: &Browser, body: Value) -> (Value, Value) {
    let (status, launched) = browser.post_json("/api/campaigns/send", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{launched}");
    let id = body["campaignId"].as_i64().unwrap();
    for _ in 0..200 {
        let (_, progress) = browser
            .get_json(&format!("/api/campaigns/{id}/progress"))
            .await;
        // Completed (nothing queued) or paused (waiting, with the reason): either way nothing is in flight.
        if progress["progress"]["sending"] == 0 && progress["status"] != "active" {
            return (launched, progress);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (_, progress) = browser
        .get_json(&format!("/api/campaigns/{id}/progress"))
        .await;
    panic!("the campaign did not finish sending: {progress}");
}

#[tokio::test]
async fn campaigns_send_through_smtp_once_per_recipient_with_unsubscribe_headers() {
    for test_db in TestDb::all().await {
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
        let (status, template) = ada.post_json("/api/email-templates", json!({
            "name": "Intro", "subject": "Fresh bread for {{businessName}}", "objective": "Partnership Proposal",
            "tone": "friendly", "emailSignature": "Ada",
            "body": "<p>Hello [business name],</p><p>See <a href=\"https://bakery.example/menu\">our menu</a>.</p>"
        })).await;
        assert_eq!(status, StatusCode::CREATED, "{template}");
        let leads = "name,email,website\nCafé Aalto,owner@aalto.example,\nNo Mail Deli,,\nKahvila Kuu,kuu@kuu.example,\n";
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
        assert_eq!(ids.len(), 3, "{imported}");

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
            (Some(2), Some(1)),
            "{launched}"
        );
        assert_eq!(progress["status"], "completed", "{progress}");
        assert_eq!(
            (
                progress["progress"]["sent"].as_i64(),
                progress["progress"]["skipped"].as_i64()
            ),
            (Some(2), Some(1))
        );

        // Launching again sends nobody twice.
        let (again, _) = launch_and_finish(&ada, body).await;
        assert_eq!(again["emailsSent"], 0, "{again}");
        let messages = sink.messages();
        let aalto: Vec<&String> = messages
            .iter()
            .filter(|m| m.contains("X-Rcpt-Args: <owner@aalto.example>"))
            .collect();
        assert_eq!(aalto.len(), 1, "exactly once");
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
    }
}

#[tokio::test]
async fn without_a_sender_messages_stay_in_the_local_outbox() {
    for test_db in TestDb::all().await {
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
        let (launch, _) = launch_and_finish(&ada, json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": [id] })).await;
        assert_eq!(launch["emailsSent"], 1);
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!(outbox.as_array().unwrap().len(), 1, "{outbox}");
        assert_eq!(outbox[0]["subject"], "Hi Sauna Oy");
        assert!(
            outbox[0]["htmlBody"]
                .as_str()
                .unwrap()
                .contains("Hello Sauna Oy")
        );
        assert_eq!(
            active(&app, "eve").await.get_json("/api/outbox").await.1,
            json!([])
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn tracking_links_record_opens_and_clicks_and_one_click_unsubscribes_at_once() {
    for test_db in TestDb::all().await {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Tracked" }))
            .await;
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
        // Tampered: another address with the same signature, a forged signature, a forged pixel.
        let foreign = click.replace("bakery.example%2Fmenu", "evil.example%2F");
        assert_ne!(foreign, click);
        for url in [
            foreign,
            format!("{}x", click.trim_end_matches(|c| c != '=')),
            pixel.replace("?s=", "?s=x"),
        ] {
            let refused = http.get(&url).send().await.unwrap();
            assert_eq!(refused.status(), StatusCode::NOT_FOUND, "{url}");
            assert!(refused.headers().get("location").is_none());
        }
        let mut events = Vec::new();
        for _ in 0..50 {
            events = app.ctx.db.events_of(&token).await.unwrap();
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
        let forged = unsubscribe.replace("signature=", "signature=x");
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
                .find_unsubscribe("info@sauna.example")
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
                .find_unsubscribe("info@sauna.example")
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
    }
}

#[tokio::test]
async fn branded_sendgrid_senders_are_checked_used_and_turned_off_when_the_key_is_refused() {
    for test_db in TestDb::all().await {
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
        let ada = active(&app, "ada").await;
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
        // Its paused campaign still waits on it: removing it would silently reroute the message to the outbox.
        let config_id = configs[0]["id"].as_i64().unwrap();
        let (status, in_use) = ada
            .delete_json(&format!("/api/user/email-configs/{config_id}"))
            .await;
        assert_eq!(
            (status, in_use["error"].as_str()),
            (StatusCode::CONFLICT, Some("sender_in_use")),
            "{in_use}"
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
        app.stop().await;
    }
}

#[tokio::test]
async fn test_emails_go_to_the_test_address_personalised_and_validated() {
    for test_db in TestDb::all().await {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada Baker",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Hi", "subject": "Bread for {{businessName | you}}", "objective": "Partnership Proposal", "tone": "friendly",
            "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
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
                .filter(|message| message.contains("Subject: Bread for you"))
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
        app.stop().await;
    }
}

#[tokio::test]
async fn basic_addresses_on_the_sending_domain_are_unique_and_send_through_the_operators_key() {
    for test_db in TestDb::all().await {
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
            settings.sendgrid.api_key = outreach_core::config::Secret::new("SG.operator");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
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
    }
}

/// Google's token endpoint for Gmail connections: `gmail-<person>` codes (redirect to the Gmail callback, PKCE
/// checked) get a refresh token with the `gmail.send` scope, `gmail-unticked` a token without it; the refresh grant
/// of a connected mailbox gets an access token.
async fn mount_gmail_token_endpoint(app: &TestApp) {
    let challenges = app.challenges.clone();
    let redirect = format!("{}/api/gmail/callback", app.base);
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(move |request: &Request| {
            let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body)
                .into_owned()
                .collect();
            let field = |name: &str| {
                form.iter()
                    .find(|(key, _)| key == name)
                    .map(|(_, value)| value.clone())
            };
            let verifier_matches = field("code_verifier").is_some_and(|verifier| {
                challenges
                    .lock()
                    .unwrap()
                    .contains(&URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())))
            });
            field("grant_type").as_deref() == Some("authorization_code")
                && field("redirect_uri").as_deref() == Some(redirect.as_str())
                && field("code").is_some_and(|code| code.starts_with("gmail-"))
                && verifier_matches
        })
        .respond_with(|request: &Request| {
            let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body)
                .into_owned()
                .collect();
            let code = form
                .iter()
                .find(|(key, _)| key == "code")
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let scope = match code.as_str() {
                "gmail-unticked" => "openid",
                "gmail-read" => GMAIL_SEND_AND_READ,
                _ => GMAIL_SEND,
            };
            ResponseTemplate::new(200).set_body_json(json!({
                "access_token": "first-access", "token_type": "Bearer", "expires_in": 3599,
                "refresh_token": format!("refresh-{code}"), "scope": scope
            }))
        })
        .mount(&app.google)
        .await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(|request: &Request| {
            let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body)
                .into_owned()
                .collect();
            form.contains(&("grant_type".into(), "refresh_token".into()))
                && form.contains(&("refresh_token".into(), "refresh-gmail-ada".into()))
                && form.contains(&("client_id".into(), CLIENT_ID.into()))
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "send-access", "token_type": "Bearer", "expires_in": 3599
        })))
        .mount(&app.google)
        .await;
}

/// Google's consent URL for a Gmail connection, checked: `gmail.send` only, offline, a fresh consent, the address
/// as login hint, PKCE. Returns the state.
const GMAIL_SEND: &str = "https://www.googleapis.com/auth/gmail.send";
const GMAIL_SEND_AND_READ: &str =
    "https://www.googleapis.com/auth/gmail.send https://www.googleapis.com/auth/gmail.readonly";

/// Checks Google's consent URL (asking for `scope`) and returns its state.
fn gmail_consent(app: &TestApp, url: &str, address: &str, scope: &str) -> String {
    let consent = url::Url::parse(url).unwrap();
    assert_eq!(
        consent.as_str().split('?').next().unwrap(),
        format!("{}/authorize", app.google.uri())
    );
    let query: std::collections::HashMap<String, String> =
        consent.query_pairs().into_owned().collect();
    assert_eq!(query["scope"], scope);
    assert_eq!(query["access_type"], "offline");
    assert_eq!(query["prompt"], "consent");
    assert_eq!(query["login_hint"], address);
    assert_eq!(
        query["redirect_uri"],
        format!("{}/api/gmail/callback", app.base)
    );
    assert_eq!(query["code_challenge_method"], "S256");
    app.challenges
        .lock()
        .unwrap()
        .push(query["code_challenge"].clone());
    query["state"].clone()
}

#[tokio::test]
async fn gmail_senders_connect_through_googles_consent_and_send_through_the_gmail_api() {
    for test_db in TestDb::all().await {
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
        let ada = active(&app, "ada").await;
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
            .load_email_config(configs[0]["id"].as_i64().unwrap())
            .await
            .unwrap()
            .unwrap()
            .secret
            .expect("the refresh token is stored");
        assert!(!stored.contains("refresh-gmail-ada"));
        assert_eq!(
            outreach_core::security::decrypt_secret(&app.ctx.settings.security.secret_key, &stored)
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
            .deactivate_email_config(
                config_id,
                outreach_core::mail_apis::GMAIL_REVOKED,
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
    }
}

/// A P-256 key pair for the Event Webhook: the signing key and the public key as SendGrid shows it (base64 DER).
fn webhook_keys(seed: u8) -> (p256::ecdsa::SigningKey, String) {
    let signing = p256::ecdsa::SigningKey::from_bytes(&[seed; 32].into()).unwrap();
    let mut der = hex::decode("3059301306072a8648ce3d020106082a8648ce3d030107034200").unwrap();
    der.extend_from_slice(signing.verifying_key().to_encoded_point(false).as_bytes());
    (
        signing,
        base64::engine::general_purpose::STANDARD.encode(der),
    )
}

/// Posts events as SendGrid does: the signature over timestamp + body.
async fn post_events(
    app: &TestApp,
    signing: &p256::ecdsa::SigningKey,
    seconds: i64,
    body: &str,
) -> (StatusCode, Value) {
    post_events_signed(app, &event_signature(signing, seconds, body), seconds, body).await
}

/// SendGrid's signature of a webhook request: ECDSA over timestamp + body.
fn event_signature(
    signing: &p256::ecdsa::SigningKey,
    seconds: i64,
    body: &str,
) -> p256::ecdsa::Signature {
    use p256::ecdsa::signature::Signer;
    signing.sign(format!("{seconds}{body}").as_bytes())
}

/// Posts events with the given signature.
async fn post_events_signed(
    app: &TestApp,
    signature: &p256::ecdsa::Signature,
    seconds: i64,
    body: &str,
) -> (StatusCode, Value) {
    let stamp = seconds.to_string();
    let response = reqwest::Client::new()
        .post(format!("{}/api/webhooks/sendgrid/events", app.base))
        .header("content-type", "application/json")
        .header(
            "X-Twilio-Email-Event-Webhook-Signature",
            base64::engine::general_purpose::STANDARD.encode(signature.to_der().as_bytes()),
        )
        .header("X-Twilio-Email-Event-Webhook-Timestamp", stamp)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    (
        response.status(),
        response.json().await.unwrap_or(Value::Null),
    )
}

/// A campaign sent through the local outbox to `count` imported cafes (owner{i}@cafe{i}.example).
struct SentCampaign {
    campaign: Value,
    template: Value,
    /// The imported businesses.
    businesses: Value,
    /// The outbox listing after the send.
    outbox: Value,
}

async fn sent_campaign(browser: &Browser, name: &str, count: usize) -> SentCampaign {
    let (_, template) = browser.post_json("/api/email-templates", json!({
        "name": "Hi", "subject": "Hi {{businessName}}", "objective": "Partnership Proposal", "tone": "friendly",
        "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
    })).await;
    let csv: String = std::iter::once("name,email\n".to_string())
        .chain((0..count).map(|i| format!("Cafe {i},owner{i}@cafe{i}.example\n")))
        .collect();
    let (_, imported) = browser
        .upload("/api/businesses/import", "leads.csv", csv.into_bytes())
        .await;
    let business_ids: Vec<Value> = imported["businesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].clone())
        .collect();
    let (_, campaign) = browser
        .post_json("/api/campaigns", json!({ "name": name }))
        .await;
    let (_, progress) = launch_and_finish(
        browser,
        json!({
            "campaignId": campaign["id"], "templateId": template["id"], "businessIds": business_ids
        }),
    )
    .await;
    assert_eq!(progress["progress"]["sent"], count, "{progress}");
    let (_, outbox) = browser.get_json("/api/outbox").await;
    SentCampaign {
        campaign,
        template,
        businesses: imported["businesses"].clone(),
        outbox,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_opens_of_the_same_messages_is_counted_whole() {
    for test_db in TestDb::all().await {
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
            let events = app.ctx.db.events_of(token).await.unwrap();
            assert_eq!(events.len(), OPENS / 3, "{pixel}");
        }
    }
}

#[tokio::test]
async fn provider_events_and_replies_change_messages_suppress_and_pause() {
    for test_db in TestDb::all().await {
        let (signing, public) = webhook_keys(11);
        let (intruder, _) = webhook_keys(12);
        let app = TestApp::start_with(test_db, move |settings| {
            settings.sendgrid.webhook_public_key = public;
            settings.sendgrid.inbound_secret = outreach_core::config::Secret::new("in-secret");
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
        assert!(bounced["bouncedAt"].is_i64());
        let opened = of(&sent, "owner0@cafe0.example");
        let kinds: Vec<&str> = opened["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["eventType"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["delivered", "open"]);
        assert!(opened["deliveredAt"].is_i64() && opened["openedAt"].is_i64());
        assert!(of(&sent, "owner3@cafe3.example")["repliedAt"].is_i64());
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
    }
}

#[tokio::test]
async fn analytics_and_contacts_count_by_the_rules_of_b4_and_stay_with_their_owner() {
    for test_db in TestDb::all().await {
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
                json!("Sent"),
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
    }
}

/// A raw message as a mail server would store it.
fn mail(headers: &[(&str, &str)], body: &str) -> String {
    let mut raw: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    raw.push_str("\r\n");
    raw.push_str(body);
    raw
}

/// A delivery status notification (RFC 3464) for `recipient` about `message_id`.
fn delivery_report(recipient: &str, status: &str, diagnostic: &str, message_id: &str) -> String {
    format!(
        "From: Mail Delivery System <MAILER-DAEMON@mx.example>\r\nTo: ada@bakery.example\r\n\
         Subject: Undelivered Mail Returned to Sender\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n\
         --B\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\
         --B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\n\
         Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: {status}\r\n\
         Diagnostic-Code: smtp; {diagnostic}\r\n\
         --B\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Ada <ada@bakery.example>\r\nTo: {recipient}\r\n\
         Message-ID: {message_id}\r\nSubject: Fresh bread\r\n--B--\r\n"
    )
}

#[tokio::test]
async fn replies_bounces_and_auto_answers_are_read_from_the_senders_imap_mailbox_once() {
    for test_db in TestDb::all().await {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let dovecot = outreach_core::testing::Dovecot::start(&[("ada@bakery.example", "secret")]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let sender = |password: &str| {
            json!({
                "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada",
                "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none",
                "imapHost": "127.0.0.1", "imapPort": dovecot.port, "imapSecurity": "none",
                "imapUsername": "ada@bakery.example", "imapPassword": password
            })
        };
        // A refused IMAP login is told at save, and nothing is saved.
        let (status, refused) = ada
            .post_json("/api/user/email-config", sender("wrong"))
            .await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("imap_check_failed")),
            "{refused}"
        );
        assert_eq!(ada.get_json("/api/user/email-configs").await.1, json!([]));
        let (status, saved) = ada
            .post_json("/api/user/email-config", sender("secret"))
            .await;
        assert_eq!(status, StatusCode::OK, "{saved}");

        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Intro", "subject": "Fresh bread", "objective": "Partnership Proposal", "tone": "friendly",
            "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
        })).await;
        let leads: String = std::iter::once("name,email\n".to_string())
            .chain((0..5).map(|i| format!("Cafe {i},owner{i}@cafe{i}.example\n")))
            .collect();
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", leads.into_bytes())
            .await;
        let ids: Vec<Value> = imported["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].clone())
            .collect();
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Replies" }))
            .await;
        let (_, progress) = launch_and_finish(
            &ada,
            json!({
                "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids
            }),
        )
        .await;
        assert_eq!(progress["progress"]["sent"], 5, "{progress}");
        let message_id = |i: usize| {
            let sent = sink
                .messages()
                .into_iter()
                .find(|m| m.contains(&format!("X-Rcpt-Args: <owner{i}@cafe{i}.example>")))
                .unwrap();
            sent.lines()
                .find_map(|line| line.strip_prefix("Message-ID: "))
                .unwrap()
                .trim()
                .to_string()
        };

        // Each prospect has a follow-up waiting: a reply stops it, an automatic answer does not.
        let (_, me) = ada.get_json("/api/auth/user").await;
        let follow_up = |i: usize, token: &'static str| outreach_core::outbound::NewMessage {
            user_id: me["id"].as_i64().unwrap(),
            to_email: ["owner0@cafe0.example", "owner1@cafe1.example"][i],
            status: "queued",
            campaign_id: campaign["id"].as_i64(),
            template_id: template["id"].as_i64(),
            business_id: imported["businesses"]
                .as_array()
                .unwrap()
                .iter()
                .find(|b| b["email"] == format!("owner{i}@cafe{i}.example"))
                .and_then(|b| b["id"].as_i64()),
            step: 1,
            config_id: None,
            token,
            error: None,
            is_test: false,
            subject: "Following up",
            html_body: None,
        };
        let follow_ups = app
            .ctx
            .db
            .enqueue_messages(
                &[follow_up(0, "follow-up-0"), follow_up(1, "follow-up-1")],
                app.clock.now_ms(),
            )
            .await
            .unwrap();
        assert_eq!(follow_ups.len(), 2);

        let inbox = "ada@bakery.example";
        dovecot.deliver(
            inbox,
            &mail(
                &[
                    ("From", "Owner 0 <owner0@cafe0.example>"),
                    ("To", inbox),
                    ("Subject", "Re: Fresh bread"),
                    ("Message-ID", "<reply-0@cafe0.example>"),
                    ("In-Reply-To", &message_id(0)),
                ],
                "Yes, send us a price list.\r\n",
            ),
        );
        dovecot.deliver(
            inbox,
            &mail(
                &[
                    ("From", "owner1@cafe1.example"),
                    ("To", inbox),
                    ("Subject", "Out of office: Fresh bread"),
                    ("Auto-Submitted", "auto-replied"),
                    ("In-Reply-To", &message_id(1)),
                ],
                "I am away until Monday.\r\n",
            ),
        );
        dovecot.deliver(
            inbox,
            &delivery_report(
                "owner2@cafe2.example",
                "5.1.1",
                "550 5.1.1 User unknown",
                &message_id(2),
            ),
        );
        dovecot.deliver(
            inbox,
            &delivery_report(
                "owner3@cafe3.example",
                "4.2.2",
                "452 4.2.2 Mailbox full",
                &message_id(3),
            ),
        );
        dovecot.deliver(
            inbox,
            &mail(
                &[
                    ("From", "news@elsewhere.example"),
                    ("To", inbox),
                    ("Subject", "Our weekly news"),
                ],
                "Not about any campaign.\r\n",
            ),
        );

        // The scheduler's tick enqueues a run for the mailbox (beside the day's subscription check); the worker reads it.
        let emails_when = |done: fn(&Value) -> bool| {
            let ada = &ada;
            async move {
                for _ in 0..200 {
                    let (_, emails) = ada.get_json("/api/emails/sent").await;
                    if done(&emails) {
                        return emails;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                panic!(
                    "the mailbox was not read: {}",
                    ada.get_json("/api/emails/sent").await.1
                );
            }
        };
        let of = |emails: &Value, i: usize| {
            emails
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()
                .clone()
        };
        assert_eq!(outreach_scheduler::tick(&app.ctx).await, 2);
        let emails = emails_when(|emails| {
            emails
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["status"] == "bounced")
                && emails
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["status"] == "replied")
        })
        .await;
        assert_eq!(of(&emails, 0)["status"], "replied");
        assert_eq!(
            of(&emails, 1)["status"],
            "sent",
            "an out-of-office is no reply"
        );
        assert_eq!(of(&emails, 2)["status"], "bounced");
        assert!(
            of(&emails, 2)["bounceReason"]
                .as_str()
                .unwrap()
                .contains("User unknown")
        );
        assert_eq!(
            of(&emails, 3)["status"],
            "sent",
            "a soft bounce is only recorded"
        );
        let received = |i: usize| {
            let ada = &ada;
            async move {
                ada.get_json(&format!(
                    "/api/contacts/history?email=owner{i}@cafe{i}.example"
                ))
                .await
                .1["received"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        (
                            r["kind"].as_str().unwrap().to_string(),
                            r["source"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
            }
        };
        let follow_up_status = |id: i64| {
            let db = app.ctx.db.clone();
            async move { db.load_message(id).await.unwrap().unwrap().status }
        };
        assert_eq!(
            follow_up_status(follow_ups[0]).await,
            "skipped",
            "the reply stopped the follow-up"
        );
        assert_eq!(
            follow_up_status(follow_ups[1]).await,
            "queued",
            "an out-of-office does not"
        );
        let imap = |kind: &str| vec![(kind.to_string(), "imap".to_string())];
        assert_eq!(received(0).await, imap("reply"));
        assert_eq!(received(1).await, imap("auto_reply"));
        assert_eq!(received(2).await, imap("bounce"));
        assert_eq!(received(3).await, imap("bounce"));
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert!(configs[0]["repliesCheckedAt"].is_i64(), "{configs}");
        assert!(configs[0]["repliesError"].is_null(), "{configs}");

        // The next tick reads only what is new: nothing twice, the newsletter never.
        dovecot.deliver(
            inbox,
            &mail(
                &[
                    ("From", "owner4@cafe4.example"),
                    ("To", inbox),
                    ("Subject", "Re: Fresh bread"),
                ],
                "Interested!\r\n",
            ),
        );
        app.clock.advance(5 * 60 * 1000);
        assert_eq!(outreach_scheduler::tick(&app.ctx).await, 1);
        emails_when(|emails| {
            emails
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["status"] == "replied")
                .count()
                == 2
        })
        .await;
        assert_eq!(received(0).await.len(), 1);
        assert_eq!(received(4).await, imap("reply"));
        // Matched by sender address (no In-Reply-To): the latest message to owner4.
        assert_eq!(received(2).await.len(), 1);
        app.stop().await;
    }
}

#[tokio::test]
async fn gmail_senders_read_replies_only_after_the_second_consent_and_never_twice() {
    for test_db in TestDb::all().await {
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
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "id": id, "raw": URL_SAFE_NO_PAD.encode(raw.as_bytes())
                })))
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
            outreach_core::replies::ingest_mailbox(&app.ctx, gmail["id"].as_i64().unwrap())
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
        for _ in 0..200 {
            let (_, emails) = ada.get_json("/api/emails/sent").await;
            if emails
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["status"] == "replied")
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
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
        let gmail = config(&ada.get_json("/api/user/email-configs").await.1);
        assert!(gmail["repliesCheckedAt"].is_i64(), "{gmail}");

        // The next run starts from the history id it reached: the messages are not fetched again (expect(1)).
        let run = outreach_core::replies::ingest_mailbox(&app.ctx, gmail["id"].as_i64().unwrap())
            .await
            .unwrap();
        assert_eq!(run.read, 0);
        app.stop().await;
    }
}
