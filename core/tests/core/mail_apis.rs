//! The Gmail API and SendGrid v3 clients against local fakes (wiremock) that check every request: the raw message
//! decodes to the right headers and body, the v3 JSON carries both parts and the unsubscribe headers, the
//! Authorization headers, the token refresh, and the 401/403/429 answers.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use outreach_core::platform::config::Secret;
use outreach_core::sending::SendError;
use outreach_core::sending::compose::Composed;
use outreach_core::sending::mail_apis::{GMAIL_REVOKED, Gmail, SENDGRID_KEY_REFUSED, SendGrid};
use serde_json::{Value, json};
use wiremock::matchers::{body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn composed() -> Composed {
    Composed {
        from_name: "Ada Baker".into(),
        from_email: "ada@bakery.example".into(),
        reply_to: Some("replies@bakery.example".into()),
        to_email: "owner@cafe.example".into(),
        subject: "Fresh bread for Café Aalto".into(),
        body: "<p>Hello Café Aalto</p>".into(),
        html: "<p>Hello Café Aalto</p>".into(),
        text: "Hello Café Aalto".into(),
        message_id: "tok123@bakery.example".into(),
        headers: vec![
            (
                "List-Unsubscribe".into(),
                "<https://out.example/unsubscribe?email=x&signature=y>".into(),
            ),
            (
                "List-Unsubscribe-Post".into(),
                "List-Unsubscribe=One-Click".into(),
            ),
        ],
    }
}

fn gmail(server: &MockServer) -> Gmail {
    Gmail {
        token_url: format!("{}/token", server.uri()),
        api_url: server.uri(),
        client_id: "client-1".into(),
        client_secret: Secret::new("client-secret"),
        refresh_token: Secret::new("refresh-1"),
    }
}

async fn mount_token(server: &MockServer, access: &str) {
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=refresh_token"))
        .and(body_string_contains("refresh_token=refresh-1"))
        .and(body_string_contains("client_id=client-1"))
        .and(body_string_contains("client_secret=client-secret"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": access, "expires_in": 3599, "scope": "https://www.googleapis.com/auth/gmail.send", "token_type": "Bearer"
        })))
        .mount(server)
        .await;
}

#[tokio::test]
async fn gmail_refreshes_the_token_and_sends_the_raw_message() {
    let server = MockServer::start().await;
    mount_token(&server, "access-1").await;
    Mock::given(method("POST"))
        .and(path("/gmail/v1/users/me/messages/send"))
        .and(header("authorization", "Bearer access-1"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "id": "18c1f", "threadId": "18c1f", "labelIds": ["SENT"] })),
        )
        .expect(1)
        .mount(&server)
        .await;
    let mut token = None;
    let id = gmail(&server).send(&mut token, &composed()).await.unwrap();
    assert_eq!(id, "18c1f");
    assert_eq!(token.unwrap().expose(), "access-1");

    let requests = server.received_requests().await.unwrap();
    let send = requests
        .iter()
        .find(|request| request.url.path().ends_with("/send"))
        .unwrap();
    let body: Value = serde_json::from_slice(&send.body).unwrap();
    let raw = String::from_utf8(
        URL_SAFE_NO_PAD
            .decode(body["raw"].as_str().unwrap())
            .unwrap(),
    )
    .unwrap();
    for expected in [
        "From: \"Ada Baker\" <ada@bakery.example>",
        "To: owner@cafe.example",
        "Reply-To: replies@bakery.example",
        "Message-ID: <tok123@bakery.example>",
        "List-Unsubscribe: <https://out.example/unsubscribe?email=x&signature=y>",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
        "Content-Type: multipart/alternative",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Type: text/html; charset=utf-8",
    ] {
        assert!(raw.contains(expected), "{expected} in\n{raw}");
    }
}

#[tokio::test]
async fn an_expired_access_token_is_refreshed_once_and_a_revoked_grant_is_reported() {
    let server = MockServer::start().await;
    mount_token(&server, "access-2").await;
    Mock::given(method("POST"))
        .and(path("/gmail/v1/users/me/messages/send"))
        .and(header("authorization", "Bearer stale"))
        .respond_with(
            ResponseTemplate::new(401)
                .set_body_json(json!({ "error": { "code": 401, "status": "UNAUTHENTICATED" } })),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/gmail/v1/users/me/messages/send"))
        .and(header("authorization", "Bearer access-2"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "id": "2" })))
        .expect(1)
        .mount(&server)
        .await;
    let mut token = Some(Secret::new("stale"));
    assert_eq!(
        gmail(&server).send(&mut token, &composed()).await.unwrap(),
        "2"
    );

    let revoked = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({ "error": "invalid_grant", "error_description": "Token has been expired or revoked." })))
        .mount(&revoked)
        .await;
    let mut token = None;
    assert_eq!(
        gmail(&revoked)
            .send(&mut token, &composed())
            .await
            .unwrap_err(),
        SendError::Revoked(GMAIL_REVOKED.into())
    );
}

#[tokio::test]
async fn gmail_limits_and_outages_are_retried_refusals_are_not() {
    let cases = [
        (ResponseTemplate::new(429).set_body_json(json!({ "error": { "code": 429, "status": "RESOURCE_EXHAUSTED" } })), true),
        (ResponseTemplate::new(403).set_body_json(json!({ "error": { "code": 403, "errors": [{ "reason": "dailyLimitExceeded" }] } })), true),
        (ResponseTemplate::new(503), true),
        (ResponseTemplate::new(400).set_body_json(json!({ "error": { "code": 400, "message": "Invalid To header" } })), false),
        (ResponseTemplate::new(403).set_body_json(json!({ "error": { "code": 403, "errors": [{ "reason": "insufficientPermissions" }] } })), false),
    ];
    for (answer, retried) in cases {
        let server = MockServer::start().await;
        mount_token(&server, "access").await;
        Mock::given(method("POST"))
            .and(path("/gmail/v1/users/me/messages/send"))
            .respond_with(answer)
            .mount(&server)
            .await;
        let error = gmail(&server)
            .send(&mut None, &composed())
            .await
            .unwrap_err();
        assert_eq!(
            matches!(error, SendError::Unreachable(_)),
            retried,
            "{error:?}"
        );
    }
}

fn sendgrid(server: &MockServer) -> SendGrid {
    SendGrid {
        api_url: server.uri(),
        api_key: Secret::new("SG.key"),
    }
}

#[tokio::test]
async fn sendgrid_sends_v3_json_with_both_parts_and_the_unsubscribe_headers() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v3/mail/send"))
        .and(header("authorization", "Bearer SG.key"))
        .respond_with(ResponseTemplate::new(202).insert_header("X-Message-Id", "sg-42"))
        .expect(1)
        .mount(&server)
        .await;
    assert_eq!(sendgrid(&server).send(&composed()).await.unwrap(), "sg-42");
    let request: &Request = &server.received_requests().await.unwrap()[0];
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(
        body["personalizations"],
        json!([{ "to": [{ "email": "owner@cafe.example" }] }])
    );
    assert_eq!(
        body["from"],
        json!({ "email": "ada@bakery.example", "name": "Ada Baker" })
    );
    assert_eq!(
        body["reply_to"],
        json!({ "email": "replies@bakery.example" })
    );
    assert_eq!(
        body["content"][0],
        json!({ "type": "text/plain", "value": "Hello Café Aalto" })
    );
    assert_eq!(body["content"][1]["type"], "text/html");
    assert_eq!(
        body["headers"]["List-Unsubscribe-Post"],
        "List-Unsubscribe=One-Click"
    );
    assert_eq!(body["headers"]["Message-ID"], "<tok123@bakery.example>");
    assert_eq!(body["tracking_settings"]["click_tracking"]["enable"], false);
}

#[tokio::test]
async fn sendgrid_keys_are_checked_for_mail_send_and_errors_are_told_apart() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/scopes"))
        .and(header("authorization", "Bearer SG.key"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "scopes": ["mail.send", "user.profile.read"] })),
        )
        .mount(&server)
        .await;
    sendgrid(&server).check_key().await.unwrap();

    let read_only = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v3/scopes"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "scopes": ["user.profile.read"] })),
        )
        .mount(&read_only)
        .await;
    assert_eq!(
        sendgrid(&read_only).check_key().await.unwrap_err(),
        SendError::Revoked(SENDGRID_KEY_REFUSED.into())
    );

    let cases = [
        (ResponseTemplate::new(401).set_body_json(json!({ "errors": [{ "message": "The provided authorization grant is invalid, expired, or revoked" }] })), SendError::Revoked(SENDGRID_KEY_REFUSED.into())),
        (ResponseTemplate::new(429).set_body_json(json!({ "errors": [{ "message": "too many requests" }] })), SendError::Unreachable("SendGrid rate limit reached; retrying later".into())),
    ];
    for (answer, expected) in cases {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/v3/mail/send"))
            .respond_with(answer)
            .mount(&server)
            .await;
        assert_eq!(
            sendgrid(&server).send(&composed()).await.unwrap_err(),
            expected
        );
    }
    let server = MockServer::start().await;
    Mock::given(method("POST")).and(path("/v3/mail/send"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({ "errors": [{ "message": "Does not contain a valid address.", "field": "personalizations.0.to.0.email" }] })))
        .mount(&server).await;
    let SendError::Refused(reason) = sendgrid(&server).send(&composed()).await.unwrap_err() else {
        panic!("a refusal")
    };
    assert!(
        reason.contains("Does not contain a valid address."),
        "{reason}"
    );
}
