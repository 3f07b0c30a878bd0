//! Campaigns, education files, templates and follow-up sequences, each kept with its owner.

use super::*;

#[tokio::test]
async fn campaigns_accept_every_put_variant_and_stay_with_their_owner() {
    each_backend(|test_db| async move {
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
    })
    .await;
}

/// The builder's progress lives with the campaign: its furthest step, last search, template and sender come back on
/// any device, only the user's own can be named, and a refused request changes nothing.
#[tokio::test]
async fn the_builder_progress_is_kept_with_the_campaign() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let eve = active(&app, "eve").await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let id = campaign["id"].as_i64().unwrap();
        let path = format!("/api/campaigns/{id}");
        assert_eq!(
            (campaign["builderStep"].as_i64(), campaign["searchId"].is_null(), campaign["templateId"].is_null()),
            (Some(1), true, true)
        );

        // A search for the campaign is remembered by it, even one that finds nothing (the builder shows why again).
        let _workers = start_workers(&app);
        let (status, search) = ada
            .post_json(
                "/api/businesses/search",
                json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 5, "maxResults": 5, "campaignId": id }),
            )
            .await;
        // Still running, or failed already (the test directory is empty): either way the campaign names it.
        assert!(status == StatusCode::ACCEPTED || status == StatusCode::UNPROCESSABLE_ENTITY, "{search}");
        let (_, stored) = ada.get_json(&path).await;
        let search_id = stored["searchId"].as_i64().expect("the search is remembered");
        if let Some(answered) = search["searchId"].as_i64() {
            assert_eq!(answered, search_id);
        }
        let (status, _) = ada.get_json(&format!("/api/businesses/search/{search_id}")).await;
        assert_ne!(status, StatusCode::NOT_FOUND);

        let (_, template) = ada
            .post_json("/api/email-templates", json!({ "name": "Intro", "subject": "Hello", "body": "<p>Hi</p>" }))
            .await;
        let (_, theirs) = eve
            .post_json("/api/email-templates", json!({ "name": "Theirs", "subject": "Hello", "body": "<p>Hi</p>" }))
            .await;
        let (status, saved) = ada
            .put_json(&path, json!({ "builderStep": 5, "templateId": template["id"], "status": "template_selected" }))
            .await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!((saved["builderStep"].as_i64(), &saved["templateId"]), (Some(5), &template["id"]));

        // Another user's template or an impossible step is refused whole.
        let (status, refused) = ada
            .put_json(&path, json!({ "templateId": theirs["id"], "name": "Renamed" }))
            .await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::NOT_FOUND, Some("Template not found")));
        let (status, _) = ada.put_json(&path, json!({ "builderStep": 7 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        // Going back to an earlier step keeps the furthest one; null clears the sender choice.
        let (_, kept) = ada.put_json(&path, json!({ "builderStep": 2, "emailConfigId": null })).await;
        assert_eq!(
            (kept["builderStep"].as_i64(), kept["name"].as_str(), &kept["templateId"], kept["emailConfigId"].is_null()),
            (Some(5), Some("Cafés"), &template["id"], true)
        );
        let (status, _) = eve.put_json(&path, json!({ "builderStep": 6 })).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    })
    .await;
}

/// A returning user's builder steps never turn a launched campaign back into a draft (issue 18: a paused campaign
/// with queued messages went to template_selected and lost its recipients when Proceed was clicked).
#[tokio::test]
async fn builder_steps_never_move_a_campaign_that_has_messages_waiting() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let id = campaign["id"].as_i64().unwrap();
        let path = format!("/api/campaigns/{id}");
        // While it is being set up, the builder moves it back and forth.
        for step in ["searching", "businesses_selected", "searching"] {
            let (status, moved) = ada.put_json(&path, json!({ "status": step })).await;
            assert_eq!((status, moved["status"].as_str()), (StatusCode::OK, Some(step)));
        }
        let (status, refused) = ada.put_json(&path, json!({ "status": "active" })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(
            refused["message"],
            "A campaign becomes active by launching, pausing or resuming it, not by editing it"
        );

        // Launched with no worker running: its messages wait in the queue.
        let (_, template) = ada
            .post_json("/api/email-templates", json!({ "name": "Intro", "subject": "Hello", "body": "<p>Hi</p>" }))
            .await;
        // Issue 33.9: a template's rates (A §3), whole percentages: expected for its objective and tone until it has
        // 20 sends of its own.
        assert_eq!((&template["estimatedOpenRate"], &template["responseRate"]), (&json!(27), &json!(4)), "{template}");
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email\nCafe Aalto,owner@aalto.example\n".to_vec())
            .await;
        let business = imported["businesses"][0]["id"].clone();
        let (status, launched) = ada
            .post_json(
                "/api/campaigns/send",
                json!({ "campaignId": id, "templateId": template["id"], "businessIds": [business] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        for step in ["draft", "searching", "businesses_selected", "template_selected"] {
            let (status, kept) = ada.put_json(&path, json!({ "status": step })).await;
            assert_eq!((status, kept["status"].as_str()), (StatusCode::OK, Some("active")), "{step}");
        }
        let (status, refused) = ada.put_json(&path, json!({ "status": "archived" })).await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("This campaign is still sending; pause it before archiving it")
            )
        );
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!((progress["status"].as_str(), progress["progress"]["queued"].as_i64()), (Some("active"), Some(1)));
        // Issue 83.2: the campaign names the template its mail uses, and another template cannot take its place
        // while that mail waits.
        let (_, stored) = ada.get_json(&path).await;
        assert_eq!(stored["templateId"], template["id"], "{stored}");
        let (_, other) = ada
            .post_json("/api/email-templates", json!({ "name": "Other", "subject": "Hey", "body": "<p>Hey</p>" }))
            .await;
        let (status, refused) = ada.put_json(&path, json!({ "templateId": other["id"] })).await;
        assert_eq!(
            (status, refused["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("This campaign's queued emails use its template: stop the campaign, or make a new one, to send another")
            )
        );
        assert_eq!(ada.get_json(&path).await.1["templateId"], template["id"], "nothing changed");
        let (status, _) = ada.put_json(&path, json!({ "templateId": template["id"] })).await;
        assert_eq!(status, StatusCode::OK, "the same template is no change");
    })
    .await;
}

#[tokio::test]
async fn education_files_are_read_checked_and_kept_by_name() {
    use outreach_core::campaigns::education::fixtures;
    each_backend(|test_db| async move {
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
    })
    .await;
}

#[tokio::test]
async fn templates_are_sanitised_validated_previewed_and_owned() {
    each_backend(|test_db| async move {
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
                "Unknown variable {{firstName}}: use {{businessName}}, {{city}}, {{website}}, {{category}} or {{icebreaker}}",
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

        // The composer's unsaved draft, for one of the user's own businesses, sanitised like a saved body.
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", b"name,email,city\nCafe Aalto,owner@aalto.example,Espoo\n".to_vec())
            .await;
        let business_id = imported["businesses"][0]["id"].as_i64().unwrap();
        let draft = json!({ "subject": "Hi {{businessName}}", "body": "<p>In {{city}} <script>alert(1)</script>{{website | your site}}</p>", "businessId": business_id });
        let (status, previewed) = ada.post_json("/api/email-templates/preview", draft.clone()).await;
        assert_eq!(status, StatusCode::OK, "{previewed}");
        assert_eq!(previewed["subject"], "Hi Cafe Aalto");
        let body = previewed["body"].as_str().unwrap();
        assert!(body.contains("In Espoo your site") && !body.contains("script"), "{body}");
        assert_eq!(
            active(&app, "mallory").await.post_json("/api/email-templates/preview", draft).await.0,
            StatusCode::NOT_FOUND
        );

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
    })
    .await;
}

#[tokio::test]
async fn follow_up_sequences_grow_shrink_reorder_and_refuse_bad_input_whole() {
    each_backend(|test_db| async move {
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
    })
    .await;
}
