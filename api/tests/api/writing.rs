//! The AI writer through the API: drafts from the brief and the education, and a refused key.

use super::*;

#[tokio::test]
async fn the_offline_writer_drafts_from_the_brief_and_the_campaign_education() {
    use outreach_core::campaigns::education::fixtures;
    each_backend(|test_db| async move {
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
    })
    .await;
}

#[tokio::test]
async fn a_refused_ai_key_reaches_the_composer_as_ai_service_unavailable() {
    each_backend(|test_db| async move {
        let provider = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/chat/completions"))
            .respond_with(ResponseTemplate::new(401))
            .mount(&provider)
            .await;
        let uri = provider.uri();
        let app = TestApp::start_with(test_db, |settings| {
            settings.ai.provider = AiProvider::OpenAi;
            settings.ai.base_url = uri;
            settings.ai.api_key = outreach_core::platform::config::Secret::new("sk-revoked");
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
    })
    .await;
}
