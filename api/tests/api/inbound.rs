//! Replies, bounces and automatic answers read from an SMTP sender's IMAP mailbox, once each.

use super::*;

#[tokio::test]
async fn replies_bounces_and_auto_answers_are_read_from_the_senders_imap_mailbox_once() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let dovecot = outreach_core::testing::Dovecot::start(&[("ada@bakery.example", "secret")]);
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
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
        let follow_up =
            |i: usize, token: &'static str| outreach_core::sending::messages::NewMessage {
                user_id: me["id"].as_i64().unwrap(),
                to_email: ["owner0@cafe0.example", "owner1@cafe1.example"][i],
                status: MessageStatus::Queued,
                campaign_id: campaign["id"].as_i64(),
                template_id: template["id"].as_i64(),
                business_id: imported["businesses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|b| b["email"] == format!("owner{i}@cafe{i}.example"))
                    .and_then(|b| b["id"].as_i64()),
                kind: outreach_core::sending::messages::MessageKind::FollowUp,
                step: 1,
                config_id: None,
                pooled: false,
                token,
                error: None,
                subject: "Following up",
                html_body: None,
                in_reply_to: None,
                variant: 0,
            };
        let follow_ups = app
            .ctx
            .db
            .sending().enqueue_messages(
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

        let of = |emails: &Value, i: usize| {
            emails
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["toEmail"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()
                .clone()
        };
        // The scheduler's tick enqueues the daily expiry, the mailbox's read and the minute's follow-up run; the
        // workers run them.
        assert_eq!(outreach_scheduler::tick(&app.ctx).await, 3);
        workers_idle(&app).await;
        let (_, emails) = ada.get_json("/api/emails/sent").await;
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
            async move { db.sending().load_message(id).await.unwrap().unwrap().status }
        };
        assert_eq!(
            follow_up_status(follow_ups[0]).await,
            MessageStatus::Skipped,
            "the reply stopped the follow-up"
        );
        assert_eq!(
            follow_up_status(follow_ups[1]).await,
            MessageStatus::Queued,
            "an out-of-office does not"
        );
        let imap = |kind: &str| vec![(kind.to_string(), "imap".to_string())];
        assert_eq!(received(0).await, imap("reply"));
        // The reply is read ("Yes, send us a price list": welcome, and a person answers the price); the
        // out-of-office is no response.
        let read = reading_of(&ada, "owner0@cafe0.example").await;
        assert_eq!((read["sentiment"].as_str(), read["escalations"].clone()), (Some("positive"), json!(["price"])));
        assert_eq!(received(1).await, imap("auto_reply"));
        assert_eq!(received(2).await, imap("bounce"));
        assert_eq!(received(3).await, imap("bounce"));
        // Issue 34: the reply and the out-of-office are conversations in the inbox after the poll that read them;
        // bounces and the newsletter are not.
        let (_, inbox_page) = ada.get_json("/api/inbox/threads").await;
        let conversations: Vec<(&str, &str)> = inbox_page["threads"].as_array().unwrap().iter()
            .map(|thread| (thread["prospect"].as_str().unwrap(), thread["excerpt"].as_str().unwrap())).collect();
        assert_eq!(conversations.len(), 2, "{inbox_page}");
        assert!(conversations.contains(&("owner0@cafe0.example", "Yes, send us a price list.")), "{inbox_page}");
        assert!(conversations.contains(&("owner1@cafe1.example", "I am away until Monday.")), "{inbox_page}");
        let (_, configs) = ada.get_json("/api/user/email-configs").await;
        assert!(is_time(&configs[0]["repliesCheckedAt"]), "{configs}");
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
        // The mailbox's read and the minute's follow-up run.
        assert_eq!(outreach_scheduler::tick(&app.ctx).await, 2);
        workers_idle(&app).await;
        let (_, emails) = ada.get_json("/api/emails/sent").await;
        let replied = emails.as_array().unwrap().iter().filter(|m| m["status"] == "replied");
        assert_eq!(replied.count(), 2, "{emails}");
        assert_eq!(received(0).await.len(), 1);
        assert_eq!(received(4).await, imap("reply"));
        // Matched by sender address (no In-Reply-To): the latest message to owner4.
        assert_eq!(received(2).await.len(), 1);
        app.stop().await;
    })
    .await;
}
