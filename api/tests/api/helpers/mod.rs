//! What the API tests share: the app on a free port with its fake Google provider, a browser that keeps cookies,
//! signed-in users, workers, and the fake mail and webhook traffic of providers.

use super::*;

mod campaigns;
pub use campaigns::*;

pub const ADMIN: &str = "boss@example.org";

pub const CLIENT_ID: &str = "client-123.apps.example";

pub const CLIENT_SECRET: &str = "client-secret-xyz";

/// The app on a free port, its fake Google provider and a clock the test moves.
pub struct TestApp {
    pub base: String,
    pub clock: Arc<ManualClock>,
    pub google: MockServer,
    /// PKCE challenges the app sent to the provider; the token endpoint accepts only matching verifiers.
    pub challenges: Arc<Mutex<Vec<String>>>,
    pub test_db: TestDb,
    pub server: tokio::task::JoinHandle<()>,
    pub ctx: Context,
}

impl TestApp {
    pub async fn start(test_db: TestDb) -> Self {
        Self::start_with(test_db, |_| {}).await
    }

    pub async fn start_with(test_db: TestDb, configure: impl FnOnce(&mut Settings)) -> Self {
        let google = MockServer::start().await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut settings = Settings::default();
        settings.http.listen = listener.local_addr().unwrap();
        settings.auth.admin_emails = vec![ADMIN.into()];
        settings.google.client_id = CLIENT_ID.into();
        settings.google.client_secret = outreach_core::platform::config::Secret::new(CLIENT_SECRET);
        settings.google.auth_url = format!("{}/authorize", google.uri());
        settings.google.token_url = format!("{}/token", google.uri());
        settings.google.userinfo_url = format!("{}/userinfo", google.uri());
        settings.security.secret_key =
            outreach_core::platform::config::Secret::new("test-key-".repeat(8));
        // Directory businesses have real websites: tests read only their own fixture sites.
        settings.crawler.restrict_to_allow_hosts = true;
        // Senders of these tests are SMTP and IMAP servers on loopback, which an operator has to allow.
        let mut settings = outreach_core::testing::at_any_time(
            outreach_core::testing::loopback_senders_allowed(settings),
        );
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

    pub fn browser(&self) -> Browser {
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
    pub async fn mount_token_endpoint(&self) {
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
    pub async fn google_person(&self, person: &str, email: &str, given: &str, family: &str) {
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
    pub async fn signed_in(&self, person: &str, email: &str, given: &str) -> Browser {
        self.google_person(person, email, given, "Tester").await;
        let browser = self.browser();
        let callback = browser
            .google_round_trip(self, &format!("code-{person}"), None)
            .await;
        assert_eq!(location(&callback), "/dashboard");
        browser
    }

    pub async fn stop(self) {
        self.server.abort();
        self.test_db.cleanup().await;
    }
}

/// A browser: keeps its cookies (a cleared one is forgotten) and never follows redirects, so tests see them.
pub struct Browser {
    pub http: reqwest::Client,
    pub base: String,
    pub cookies: Mutex<std::collections::BTreeMap<String, String>>,
}

impl Browser {
    pub async fn send(&self, builder: reqwest::RequestBuilder) -> reqwest::Response {
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
    pub fn session(&self) -> Option<String> {
        self.cookies
            .lock()
            .unwrap()
            .get("outreach_session")
            .map(|value| format!("outreach_session={value}"))
    }
    /// Replaces the browser's session cookie with `cookie` (`name=value`).
    pub fn use_session(&self, cookie: &str) {
        let (name, value) = cookie.split_once('=').unwrap();
        self.cookies
            .lock()
            .unwrap()
            .insert(name.to_string(), value.to_string());
    }
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.send(self.http.get(self.url(path))).await
    }
    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.send(self.http.post(self.url(path)).json(&body)).await
    }
    pub async fn get_json(&self, path: &str) -> (StatusCode, Value) {
        let response = self.get(path).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    pub async fn post_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.post(path, body).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    pub fn url(&self, path: &str) -> String {
        if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// `/auth/google` → the provider's consent URL (checked) → back to the callback with `code`.
    pub async fn google_round_trip(
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

pub fn location(response: &reqwest::Response) -> String {
    response
        .headers()
        .get(LOCATION)
        .expect("a redirect")
        .to_str()
        .unwrap()
        .to_string()
}

/// Signs in `person` with an active account (a free trial granted by the administrator first).
pub async fn active(app: &TestApp, person: &str) -> Browser {
    let email = format!("{person}@example.org");
    app.ctx
        .db
        .accounts()
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

/// An active user with the postal address every email that leaves the machine must carry (the pre-launch check
/// blocks a launch through a real sender without it).
pub async fn ready_to_send(app: &TestApp, person: &str) -> Browser {
    let browser = active(app, person).await;
    let (status, _) = browser
        .put_json(
            "/api/user/profile",
            json!({ "postalAddress": "Bakery Street 1, 00100 Helsinki" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    browser
}

impl Browser {
    /// Polls a search answer until the search stops running.
    pub async fn search_to_the_end(&self, mut answer: Value) -> Value {
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

    pub async fn put_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.send(self.http.put(self.url(path)).json(&body)).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    pub async fn patch_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self.send(self.http.patch(self.url(path)).json(&body)).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    pub async fn delete_json(&self, path: &str) -> (StatusCode, Value) {
        let response = self.send(self.http.delete(self.url(path))).await;
        (
            response.status(),
            response.json().await.unwrap_or(Value::Null),
        )
    }
    pub async fn upload(&self, path: &str, name: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
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

/// The job workers of a test, running until `stop` (or until dropped, without waiting for them).
pub struct Workers {
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl Workers {
    /// Stops the workers and waits until they have: what the test reads next, no job of theirs changes any more.
    pub async fn stop(self) {
        self.stop.send(()).ok();
        self.running.await.unwrap().unwrap();
    }
}

/// Runs the job workers until they are stopped.
pub fn start_workers(app: &TestApp) -> Workers {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(outreach_worker::run(app.ctx.clone(), async move {
        stopped.await.ok();
    }));
    Workers { stop, running }
}

pub fn brief() -> Value {
    json!({
        "templateName": "Intro", "objective": "Partnership Proposal", "serviceDescription": "weekly sourdough deliveries",
        "valueProposition": "your shelves stay full", "yourAsk": "Shall we try one week", "promotionalUrl": "https://bakery.example",
        "adjustments": "", "tone": "friendly", "emailSignature": "Ada\nNordic Bakery", "aiEducationText": "", "aiEducationFiles": []
    })
}

/// Launches and polls the campaign's progress until it completes or pauses.
pub async fn launch_and_finish(browser: &Browser, body: Value) -> (Value, Value) {
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

/// Google's token endpoint for Gmail connections: `gmail-<person>` codes (redirect to the Gmail callback, PKCE
/// checked) get a refresh token with the `gmail.send` scope, `gmail-unticked` a token without it; the refresh grant
/// of a connected mailbox gets an access token.
pub async fn mount_gmail_token_endpoint(app: &TestApp) {
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
pub const GMAIL_SEND: &str = "https://www.googleapis.com/auth/gmail.send";

pub const GMAIL_SEND_AND_READ: &str =
    "https://www.googleapis.com/auth/gmail.send https://www.googleapis.com/auth/gmail.readonly";

/// Checks Google's consent URL (asking for `scope`) and returns its state.
pub fn gmail_consent(app: &TestApp, url: &str, address: &str, scope: &str) -> String {
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

/// A P-256 key pair for the Event Webhook: the signing key and the public key as SendGrid shows it (base64 DER).
pub fn webhook_keys(seed: u8) -> (p256::ecdsa::SigningKey, String) {
    let signing = p256::ecdsa::SigningKey::from_bytes(&[seed; 32].into()).unwrap();
    let mut der = hex::decode("3059301306072a8648ce3d020106082a8648ce3d030107034200").unwrap();
    der.extend_from_slice(signing.verifying_key().to_encoded_point(false).as_bytes());
    (
        signing,
        base64::engine::general_purpose::STANDARD.encode(der),
    )
}

/// Posts events as SendGrid does: the signature over timestamp + body.
pub async fn post_events(
    app: &TestApp,
    signing: &p256::ecdsa::SigningKey,
    seconds: i64,
    body: &str,
) -> (StatusCode, Value) {
    post_events_signed(app, &event_signature(signing, seconds, body), seconds, body).await
}

/// SendGrid's signature of a webhook request: ECDSA over timestamp + body.
pub fn event_signature(
    signing: &p256::ecdsa::SigningKey,
    seconds: i64,
    body: &str,
) -> p256::ecdsa::Signature {
    use p256::ecdsa::signature::Signer;
    signing.sign(format!("{seconds}{body}").as_bytes())
}

/// Posts events with the given signature.
pub async fn post_events_signed(
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

/// A raw message as a mail server would store it.
pub fn mail(headers: &[(&str, &str)], body: &str) -> String {
    let mut raw: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    raw.push_str("\r\n");
    raw.push_str(body);
    raw
}

/// A delivery status notification (RFC 3464) for `recipient` about `message_id`.
pub fn delivery_report(
    recipient: &str,
    status: &str,
    diagnostic: &str,
    message_id: &str,
) -> String {
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

/// Whether an answer's time is ISO 8601 text in UTC, as every time on the wire is.
pub fn is_time(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|text| text.len() == 24 && text.ends_with('Z') && text.as_bytes()[10] == b'T')
}

/// Once the workers of `start_workers` have done every job there is now. A job's effects appear one at a time (a
/// mailbox run stores each message it reads, then moves its mark), so waiting for one of them can catch it halfway.
pub async fn workers_idle(app: &TestApp) {
    outreach_worker::wait_until_idle(&app.ctx, std::time::Duration::from_secs(60))
        .await
        .unwrap();
}

/// The reply from `from` as the Responses screen lists it, once the workers have read it (`ClassifyReply`).
pub async fn reading_of(browser: &Browser, from: &str) -> Value {
    for _ in 0..200 {
        let (_, analytics) = browser.get_json("/api/email-responses/analytics").await;
        if let Some(read) = analytics["recentResponses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["fromEmail"] == from && !r["sentiment"].is_null())
        {
            return read.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the reply from {from} was not read");
}
