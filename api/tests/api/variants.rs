//! A/B variants (issue 81): `variants` on the template API (refusals name their field and save nothing), an even
//! and stable split of a step's recipients, the variants' figures, and the winner (by hand, and by the rule on
//! positive replies read from the sender's IMAP mailbox).

use super::*;

fn variant(subject: &str, body: &str) -> Value {
    json!({ "subject": subject, "body": body })
}

/// The messages of the outbox with this subject.
fn with_subject(outbox: &Value, subject: &str) -> usize {
    outbox
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["subject"] == subject)
        .count()
}

#[tokio::test]
async fn bad_variants_get_a_400_naming_the_field_and_nothing_is_saved() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let template = |variants: Value| json!({
            "name": "Intro", "subject": "Hello", "body": "<p>Hi</p>", "objective": "Partnership Proposal",
            "tone": "friendly", "variants": variants
        });
        let five = json!([variant("B", "<p>b</p>"), variant("C", "<p>c</p>"), variant("D", "<p>d</p>"),
            variant("E", "<p>e</p>"), variant("F", "<p>f</p>")]);
        for (variants, field) in [
            (five, "variants:"),
            (json!([variant(" ", "<p>b</p>")]), "variants[0].subject:"),
            (json!([variant("B", "<p>b</p>"), variant("C", "<p>Hi {{firstName}}</p>")]), "variants[1].body:"),
        ] {
            let (status, error) = ada.post_json("/api/email-templates", template(variants)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
            assert_eq!(error["error"], "invalid_variant");
            assert!(error["message"].as_str().unwrap().starts_with(field), "{error}");
        }
        assert_eq!(ada.get_json("/api/email-templates").await.1, json!([]), "nothing saved");

        let (status, saved) = ada
            .post_json("/api/email-templates", template(json!([variant("Quick question", "<p>Hey {{businessName}}</p>")])))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{saved}");
        assert_eq!(saved["subject"], "Hello", "the template's own fields stay variant A");
        assert_eq!(saved["variants"], json!([variant("Quick question", "<p>Hey {{businessName}}</p>")]));
        let id = saved["id"].as_i64().unwrap();
        let (status, _) = ada.put_json(&format!("/api/email-templates/{id}"), json!({
            "name": "Intro", "subject": "Changed", "body": "<p>Hi</p>", "variants": [variant("", "<p>x</p>")]
        })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (_, listed) = ada.get_json("/api/email-templates").await;
        assert_eq!(listed[0]["subject"], "Hello", "a refused update changes nothing");
        assert_eq!(listed[0]["variants"][0]["subject"], "Quick question");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn two_variants_split_forty_recipients_evenly_and_a_winner_takes_the_rest() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let ready = campaign_to_cafes(&ada, "Split", 40).await;
        let template = ready.template["id"].as_i64().unwrap();
        let (status, _) = ada.put_json(&format!("/api/email-templates/{template}"), json!({
            "name": "Hi", "subject": "Hi {{businessName}}", "body": "<p>Hello [business name]</p>",
            "variants": [variant("Question for {{businessName}}", "<p>Quick one, [business name]</p>")]
        })).await;
        assert_eq!(status, StatusCode::OK);
        let (_, progress) = launch_and_finish(&ada, ready.launch.clone()).await;
        assert_eq!(progress["progress"]["sent"], 40, "{progress}");
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let messages = outbox.as_array().unwrap();
        let b = messages.iter().filter(|m| m["subject"].as_str().unwrap().starts_with("Question for")).count();
        let a = messages.iter().filter(|m| m["subject"].as_str().unwrap().starts_with("Hi ")).count();
        println!("variant split of 40 recipients: A {a}, B {b}");
        assert_eq!(a + b, 40);
        assert!((16..=24).contains(&a) && (16..=24).contains(&b), "A {a}, B {b}");
        // Each message's body is its subject's variant.
        for message in messages {
            let b_subject = message["subject"].as_str().unwrap().starts_with("Question for");
            let b_body = message["textBody"].as_str().unwrap().starts_with("Quick one");
            assert_eq!(b_subject, b_body, "{message}");
        }

        let id = ready.campaign["id"].as_i64().unwrap();
        let (status, figures) = ada.get_json(&format!("/api/campaigns/{id}/variants")).await;
        assert_eq!(status, StatusCode::OK, "{figures}");
        let rows = figures.as_array().unwrap();
        assert_eq!(rows.len(), 2, "{figures}");
        for (row, (variant, sent)) in rows.iter().zip([(0, a), (1, b)]) {
            for key in ["step", "variant", "sent", "opened", "replied", "positive", "probabilityBest", "winner"] {
                assert!(row.get(key).is_some(), "{key} in {row}");
            }
            assert_eq!((row["step"].as_i64(), row["variant"].as_i64()), (Some(0), Some(variant)));
            assert_eq!(row["sent"], sent);
            assert_eq!(row["opened"], Value::Null, "opens are not tracked");
            assert_eq!(row["winner"], false);
        }
        let total: f64 = rows.iter().map(|row| row["probabilityBest"].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 0.01, "{figures}");

        // Launching again writes nobody twice: each recipient keeps its message and its variant.
        let (status, again) = ada.post_json("/api/campaigns/send", ready.launch.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{again}");
        let (_, figures) = ada.get_json(&format!("/api/campaigns/{id}/variants")).await;
        assert_eq!((figures[0]["sent"].as_u64(), figures[1]["sent"].as_u64()), (Some(a as u64), Some(b as u64)));

        // A pick by hand: the step's new messages all use it.
        let (status, error) = ada.post_json(&format!("/api/campaigns/{id}/variants/winner"), json!({ "step": 0, "variant": 2 })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert!(error["message"].as_str().unwrap().starts_with("variant:"), "{error}");
        let (status, picked) = ada.post_json(&format!("/api/campaigns/{id}/variants/winner"), json!({ "step": 0, "variant": 1 })).await;
        assert_eq!(status, StatusCode::OK, "{picked}");
        assert_eq!(picked[1]["winner"], true);
        assert!(picked[1]["winnerReason"].as_str().unwrap().contains("picked by you"), "{picked}");
        assert!(is_time(&picked[1]["decidedAt"]));
        let more: String = std::iter::once("name,email\n".to_string())
            .chain((0..6).map(|i| format!("Bar {i},owner{i}@bar{i}.example\n")))
            .collect();
        let (_, imported) = ada.upload("/api/businesses/import", "more.csv", more.into_bytes()).await;
        let ids: Vec<Value> = imported["businesses"].as_array().unwrap().iter().map(|b| b["id"].clone()).collect();
        launch_and_finish(&ada, json!({ "campaignId": id, "templateId": template, "businessIds": ids })).await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let bars: Vec<&Value> = outbox.as_array().unwrap().iter()
            .filter(|m| m["toEmail"].as_str().unwrap().contains("@bar")).collect();
        assert_eq!(bars.len(), 6);
        assert!(bars.iter().all(|m| m["subject"].as_str().unwrap().starts_with("Question for")), "{bars:?}");
        assert_eq!(with_subject(&outbox, "nothing"), 0);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn positive_replies_read_by_imap_pick_the_winner_once_each_variant_has_enough_sends() {
    each_backend(|test_db| async move {
        let sink = outreach_core::testing::SmtpSink::start(&[]);
        let dovecot = outreach_core::testing::Dovecot::start(&[("ada@bakery.example", "secret")]);
        let app = TestApp::start_with(test_db, |settings| {
            settings.variants.min_sends = 10;
        })
        .await;
        let _workers = start_workers(&app);
        let ada = ready_to_send(&app, "ada").await;
        let (status, saved) = ada.post_json("/api/user/email-config", json!({
            "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada",
            "smtpHost": "127.0.0.1", "smtpPort": sink.port, "smtpSecurity": "none",
            "imapHost": "127.0.0.1", "imapPort": dovecot.port, "imapSecurity": "none",
            "imapUsername": "ada@bakery.example", "imapPassword": "secret", "rampUp": false
        })).await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        let ready = campaign_to_cafes(&ada, "Winner", 24).await;
        let template = ready.template["id"].as_i64().unwrap();
        ada.put_json(&format!("/api/email-templates/{template}"), json!({
            "name": "Hi", "subject": "Hi {{businessName}}", "body": "<p>Hello [business name]</p>",
            "variants": [variant("Question for {{businessName}}", "<p>Quick one, [business name]</p>")]
        })).await;
        launch_and_finish(&ada, ready.launch.clone()).await;
        let id = ready.campaign["id"].as_i64().unwrap();
        let (_, before) = ada.get_json(&format!("/api/campaigns/{id}/variants")).await;
        assert!(before.as_array().unwrap().iter().all(|row| row["winner"] == false), "{before}");

        // Every recipient of B answers with interest, by mail into the sender's IMAP mailbox; A's stay silent.
        let header = |message: &str, name: &str| {
            message.lines().find_map(|line| line.strip_prefix(name)).map(|value| value.trim().to_string())
        };
        let mut answered = 0;
        for message in sink.messages() {
            if !header(&message, "Subject: ").is_some_and(|subject| subject.starts_with("Question for")) {
                continue;
            }
            let prospect = header(&message, "X-Rcpt-Args: <").unwrap().trim_end_matches('>').to_string();
            let message_id = header(&message, "Message-ID: ").unwrap();
            let raw = mail(&[("From", &prospect), ("To", "ada@bakery.example"), ("Subject", "Re: your question"),
                ("In-Reply-To", &message_id)],
                "Yes, very interested! Please send me the price list and let's talk next week.\r\n");
            dovecot.deliver("ada@bakery.example", &raw);
            answered += 1;
        }
        assert!(answered >= 10, "{answered} recipients of B");
        outreach_scheduler::tick(&app.ctx).await;
        workers_idle(&app).await;
        let mut figures = Value::Null;
        for _ in 0..200 {
            figures = ada.get_json(&format!("/api/campaigns/{id}/variants")).await.1;
            if figures[1]["winner"] == true {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(figures[1]["winner"], true, "{figures}");
        assert_eq!(figures[1]["replied"], answered, "{figures}");
        assert!(figures[1]["positive"].as_i64().unwrap() >= 3, "{figures}");
        assert_eq!(figures[0]["positive"], 0, "{figures}");
        assert!(figures[1]["probabilityBest"].as_f64().unwrap() >= 0.95, "{figures}");
        let reason = figures[1]["winnerReason"].as_str().unwrap();
        assert!(reason.starts_with("B is best on positive replies with probability"), "{reason}");
        app.stop().await;
    })
    .await;
}
