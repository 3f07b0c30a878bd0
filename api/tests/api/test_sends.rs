//! Test sends (issue 80.4): no side door around a launch. The footer and its postal address for tests to anyone
//! else, a rate limit per user, and why a test to an address that may not be written to was not sent.

use super::*;

/// Issue 80.4: test sends are no side door. A test to someone else through a real sender needs the postal address
/// a launch needs and carries the footer; the user's own address needs none. Each user may write 10 test emails a
/// minute (429 after, saying so, and nothing written). A test to an address that unsubscribed says why it was not
/// sent.
#[tokio::test]
async fn test_sends_carry_the_footer_have_a_rate_limit_and_say_why_they_were_not_sent() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let eve = active(&app, "eve").await;
        let (status, saved) = eve.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "eve@bakery.example", "emailSendFromName": "Eve",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none"
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let test = |to: &str| json!({ "to": to, "subject": "Just checking", "body": "<p>Plain test</p>" });

        // No postal address: refused to a stranger, nothing written; her own addresses are fine.
        let (status, refused) = eve.post_json("/api/campaigns/send-test-email", test("someone@else.example")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert!(refused["message"].as_str().unwrap().starts_with("Add your postal address in Email Settings"), "{refused}");
        for own in ["eve@example.org", "eve@bakery.example"] {
            let (status, sent) = eve.post_json("/api/campaigns/send-test-email", test(own)).await;
            assert_eq!((status, sent["sent"].as_u64()), (StatusCode::OK, Some(1)), "{sent}");
        }
        assert_eq!(sink.messages().len(), 2);

        // With the address, a test to a stranger carries the footer.
        let (status, _) = eve.put_json("/api/user/profile", json!({ "postalAddress": "Bakery Street 1, 00100 Helsinki" })).await;
        assert_eq!(status, StatusCode::OK);
        let (_, sent) = eve.post_json("/api/campaigns/send-test-email", test("someone@else.example")).await;
        assert_eq!(sent["success"], true, "{sent}");
        let stranger = sink.messages().into_iter().find(|m| m.contains("someone@else.example")).expect("delivered");
        assert!(stranger.contains("Bakery Street 1, 00100 Helsinki"), "{stranger}");

        // An address that unsubscribed: not sent, and the answer says why.
        app.ctx.db.sending().insert_unsubscribe("gone@else.example", "link", app.ctx.now_ms()).await.unwrap();
        let (status, skipped) = eve.post_json("/api/campaigns/send-test-email", test("gone@else.example")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (skipped["success"].as_bool(), skipped["errorType"].as_str(), skipped["message"].as_str()),
            (Some(false), Some("recipient_suppressed"), Some("Test email not sent to gone@else.example: The recipient unsubscribed")),
            "{skipped}"
        );

        // Four written this minute; six more fit, the seventh does not.
        let (_, copies) = eve.post_json("/api/campaigns/send-test-email", test("eve@example.org")).await;
        assert_eq!(copies["sent"], 1, "{copies}");
        let template = eve.post_json("/api/email-templates", json!({ "name": "T", "subject": "Hi", "body": "<p>Hi</p>" })).await.1;
        let (_, copies) = eve.post_json("/api/campaigns/test", json!({ "testEmail": "eve@example.org", "quantity": 5, "templateId": template["id"] })).await;
        assert_eq!(copies["sent"], 5, "{copies}");
        let before = sink.messages().len();
        let (status, limited) = eve.post_json("/api/campaigns/send-test-email", test("eve@example.org")).await;
        assert_eq!(
            (status, limited["error"].as_str(), limited["message"].as_str()),
            (StatusCode::TOO_MANY_REQUESTS, Some("too_many_test_emails"), Some("Too many test emails: at most 10 a minute. Try again in a minute.")),
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(sink.messages().len(), before, "nothing more sent");
        // Another user has a limit of their own.
        let ada = ready_to_send(&app, "ada").await;
        let (status, _) = ada.post_json("/api/campaigns/send-test-email", test("ada@example.org")).await;
        assert_eq!(status, StatusCode::OK);
        app.stop().await;
    })
    .await;
}
