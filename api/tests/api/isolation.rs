//! Nothing one job or one user does stops anyone else (issue 29): text any Unicode, a message whose writing panics,
//! a slow sender, uploads and the automatic answers' daily cap. Each test failed before its fix.

use super::*;
use outreach_core::platform::faults::{Fault, arm};

/// Imports leads (`name,email,city` rows) and answers their ids.
async fn leads(browser: &Browser, rows: &str) -> Vec<Value> {
    let (status, imported) = browser
        .upload(
            "/api/businesses/import",
            "leads.csv",
            format!("name,email,city\n{rows}").into_bytes(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{imported}");
    imported["businesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|business| business["id"].clone())
        .collect()
}

#[tokio::test]
async fn a_letter_whose_case_changes_its_length_and_a_message_that_panics_stop_nobody_else() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, template) = ada.post_json("/api/email-templates", json!({
            "name": "Istanbul", "subject": "İstanbul: [business name]", "objective": "Partnership Proposal",
            "tone": "friendly", "emailSignature": "Ada",
            "body": "<p>İstanbul: [business name]’s team in {{city}}, İ [BUSINESS NAME] é</p>"
        })).await;
        let ids = leads(&ada, "Cafe,owner@cafe.example,İzmir\nPoison,owner@poison.example,İzmir\n").await;
        // The preview answers (it dropped the connection).
        let (status, preview) = ada
            .post_json(
                &format!("/api/email-templates/{}/preview", template["id"]),
                json!({ "businessName": "Cafe", "city": "İzmir" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(preview["subject"], "İstanbul: Cafe");
        assert_eq!(
            preview["body"],
            "<p>İstanbul: Cafe’s team in İzmir, İ Cafe é</p>"
        );

        // Writing one message panics: it fails alone, with why, and the campaign finishes.
        arm("compose", "owner@poison.example", Fault::Panic);
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Istanbul" }))
            .await;
        html_and_tracking(&ada, &campaign).await;
        let (_, progress) = launch_and_finish(
            &ada,
            json!({ "campaignId": campaign["id"], "templateId": template["id"], "businessIds": ids }),
        )
        .await;
        assert_eq!(
            (&progress["progress"]["sent"], &progress["progress"]["failed"]),
            (&json!(1), &json!(1)),
            "{progress}"
        );
        let (_, details) = ada
            .get_json(&format!("/api/campaigns/{}/details", campaign["id"]))
            .await;
        let poisoned = details["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|email| email["toEmail"] == "owner@poison.example")
            .unwrap();
        assert!(
            poisoned["notSentReason"]
                .as_str()
                .unwrap()
                .starts_with("The message could not be written: fault injected"),
            "{poisoned}"
        );
        let (_, outbox) = ada.get_json("/api/outbox").await;
        assert_eq!(outbox[0]["subject"], "İstanbul: Cafe");
        assert!(
            outbox[0]["htmlBody"]
                .as_str()
                .unwrap()
                .contains("İstanbul: Cafe’s team in İzmir, İ Cafe é"),
            "{outbox}"
        );

        // Another user's campaign, launched afterwards, goes out.
        let eve = active(&app, "eve").await;
        sent_campaign(&eve, "Eve's", 2).await;
        app.stop().await;
    })
    .await;
}

/// Issue 29.8: replies read at the same moment never send more automatic answers than the day's cap.
#[tokio::test]
async fn concurrent_replies_send_no_more_automatic_answers_than_the_days_cap() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let workers = start_workers(&app);
        let SentCampaign {
            campaign, outbox, ..
        } = sent_campaign(&ada, "Breads", 3).await;
        workers.stop().await;
        let (_, current) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        let mut ai = current["aiSettings"].clone();
        ai["certaintyThreshold"] = json!("low");
        ai["humanApproval"] = json!("never");
        ai["autoReplyMaxPerDay"] = json!(2);
        let (status, _) = ada
            .put_json(
                &format!("/api/campaigns/{}", campaign["id"]),
                json!({ "aiSettings": ai }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        for message in outbox.as_array().unwrap() {
            let (status, _) = ada
                .post_json(
                    &format!("/api/outbox/{}/reply", message["id"]),
                    json!({ "body": "Sounds great, let's do it." }),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
        }
        // The three readings run at once, interleaved at every step.
        let mut inbound_ids = Vec::new();
        for job in app
            .ctx
            .queue
            .list(
                Some(outreach_core::platform::queue::JobStatus::Pending),
                Some("ClassifyReply"),
                10,
            )
            .await
            .unwrap()
        {
            let payload = app
                .ctx
                .queue
                .show(&job.id)
                .await
                .unwrap()
                .unwrap()
                .payload
                .unwrap();
            let job: outreach_core::platform::jobs::ClassifyReply =
                serde_json::from_str(&payload).unwrap();
            inbound_ids.push(job.inbound_id);
        }
        assert_eq!(inbound_ids.len(), 3);
        let read = |id: i64| {
            let ctx = app.ctx.clone();
            async move {
                outreach_worker::handlers::classify_reply(
                    &ctx,
                    &outreach_core::platform::jobs::ClassifyReply { inbound_id: id },
                )
                .await
                .unwrap()
            }
        };
        tokio::join!(
            read(inbound_ids[0]),
            read(inbound_ids[1]),
            read(inbound_ids[2])
        );
        let (_, analytics) = ada.get_json("/api/email-responses/analytics").await;
        let answers: Vec<&Value> = analytics["recentResponses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|response| &response["answer"])
            .collect();
        let automatic = answers
            .iter()
            .filter(|answer| answer["automatic"] == true)
            .count();
        assert_eq!(automatic, 2, "{answers:?}");
        let waiting: Vec<&&Value> = answers
            .iter()
            .filter(|answer| answer["status"] == "awaiting_approval")
            .collect();
        assert_eq!(waiting.len(), 1, "{answers:?}");
        assert_eq!(
            waiting[0]["why"],
            "Today's 2 automatic answers for this campaign are sent"
        );
        app.stop().await;
    })
    .await;
}

/// Issue 29.5: Eve's slow PDFs (each read takes three seconds here) hold at most her half of the two reading slots:
/// Ada's PDF is read beside them, and her plain text needs no slot at all.
#[tokio::test]
async fn another_users_uploads_never_wait_behind_one_users_pile() {
    use outreach_core::campaigns::education::fixtures;
    use std::sync::atomic::{AtomicUsize, Ordering};
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let eve = active(&app, "eve").await;
        let ada = active(&app, "ada").await;
        let files = |campaign: &Value| format!("/api/campaigns/{}/education-files", campaign["id"]);
        let (_, eves_campaign) = eve
            .post_json("/api/campaigns", json!({ "name": "Pile" }))
            .await;
        let (_, adas_campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Bakery" }))
            .await;
        let backend = app.ctx.db.backend();
        let eves_files: Vec<String> = (1..=3).map(|n| format!("eve-{n}-{backend}.pdf")).collect();
        for name in &eves_files {
            arm("extract", name, Fault::Delay(3_000));
        }
        let eve_done = AtomicUsize::new(0);
        let eves_path = files(&eves_campaign);
        let eve_uploads = |name: String| {
            let (eve, path, eve_done) = (&eve, &eves_path, &eve_done);
            async move {
                let (status, body) = eve
                    .upload(path, &name, fixtures::pdf(&["A slow document."]))
                    .await;
                eve_done.fetch_add(1, Ordering::SeqCst);
                assert_eq!(status, StatusCode::OK, "{body}");
            }
        };
        let adas_uploads = async {
            // Eve's reads have started.
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let path = files(&adas_campaign);
            let (status, pdf) = ada
                .upload(
                    &path,
                    "about.pdf",
                    fixtures::pdf(&["Nordic Bakery since 1989."]),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{pdf}");
            let eve_done_before_pdf = eve_done.load(Ordering::SeqCst);
            let (status, text) = ada
                .upload(&path, "notes.txt", b"Open every day.".to_vec())
                .await;
            assert_eq!(status, StatusCode::OK, "{text}");
            (eve_done_before_pdf, eve_done.load(Ordering::SeqCst))
        };
        let (_, _, _, (before_pdf, before_text)) = tokio::join!(
            eve_uploads(eves_files[0].clone()),
            eve_uploads(eves_files[1].clone()),
            eve_uploads(eves_files[2].clone()),
            adas_uploads
        );
        assert_eq!(
            (before_pdf, before_text),
            (0, 0),
            "{backend}: Ada's files waited behind Eve's"
        );
        app.stop().await;
    })
    .await;
}

/// Issue 29.1: JSON with a lone surrogate (`\ud800`, valid JSON syntax but no Unicode text) is refused with a clear
/// 4xx and writes nothing.
#[tokio::test]
async fn a_lone_surrogate_in_json_is_refused_and_writes_nothing() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        for body in [
            r#"{"name":"Lone","subject":"Hi","objective":"Lead Generation","tone":"friendly","body":"<p>\ud800</p>"}"#,
            r#"{"name":"\udfff trail","subject":"Hi","objective":"Lead Generation","tone":"friendly","body":"<p>x</p>"}"#,
        ] {
            let response = ada
                .send(
                    ada.http
                        .post(ada.url("/api/email-templates"))
                        .header("content-type", "application/json")
                        .body(body),
                )
                .await;
            let status = response.status();
            let answer: Value = response.json().await.unwrap();
            assert!(status.is_client_error(), "{status}: {answer}");
            assert!(answer["message"].as_str().is_some_and(|text| !text.is_empty()), "{answer}");
        }
        let (status, templates) = ada.get_json("/api/email-templates").await;
        assert_eq!(status, StatusCode::OK);
        let text = templates.to_string();
        assert!(!text.contains("Lone") && !text.contains("trail"), "{text}");
        app.stop().await;
    })
    .await;
}
