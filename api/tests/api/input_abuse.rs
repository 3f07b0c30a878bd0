//! Abuse through the product's own inputs (issue 15): other users' templates, racing writes, oversized and
//! repeated input, data that tries to become markup, senders that point inside the network, a search cut off midway,
//! PDF bombs. Each test failed before its fix.

use super::*;
use outreach_core::testing::assert_only_safe_markup;

/// A template of `browser`'s, for tests that need one.
async fn template(browser: &Browser, name: &str) -> i64 {
    let (status, template) = browser
        .post_json(
            "/api/email-templates",
            json!({
                "name": name, "subject": "Hello {{businessName}}", "objective": "Lead Generation",
                "tone": "friendly", "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
            }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{template}");
    template["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_test_send_takes_only_the_callers_own_templates() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let eve = active(&app, "eve").await;
        let adas = template(&ada, "Ada's").await;
        for template_id in [adas, 987_654] {
            let (status, body) = eve
                .post_json(
                    "/api/campaigns/send-test-email",
                    json!({ "to": "eve@example.org", "templateId": template_id, "isTest": true }),
                )
                .await;
            assert_eq!(
                (status, body["message"].as_str()),
                (StatusCode::NOT_FOUND, Some("Template not found")),
                "{template_id}: {body}"
            );
        }
        assert_eq!(
            eve.get_json("/api/outbox").await.1,
            json!([]),
            "nothing was written for Eve"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_follow_up_creates_never_pass_four_or_share_a_position() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = Arc::new(active(&app, "ada").await);
        let main = template(&ada, "Sequence").await;
        let creates: Vec<_> = (0..16).map(|n| {
            let ada = ada.clone();
            tokio::spawn(async move {
                ada.post_json(
                    "/api/follow-up-templates",
                    json!({ "mainTemplateId": main, "subject": format!("Again {n}"), "body": "<p>Still keen?</p>",
                            "delayDays": 3 }),
                )
                .await
                .0
            })
        }).collect();
        for create in creates {
            let status = create.await.unwrap();
            assert!(
                [
                    StatusCode::CREATED,
                    StatusCode::CONFLICT,
                    StatusCode::UNPROCESSABLE_ENTITY
                ]
                .contains(&status),
                "{status}"
            );
        }
        let (_, sequence) = ada
            .get_json(&format!("/api/follow-up-templates/{main}"))
            .await;
        let positions: Vec<i64> = sequence
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["sequenceNumber"].as_i64().unwrap())
            .collect();
        let expected: Vec<i64> = (1..=positions.len() as i64).collect();
        assert_eq!(positions, expected, "unique, in order, no gaps");
        assert!(
            positions.len() <= 4 && !positions.is_empty(),
            "{positions:?}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn oversized_text_and_lists_are_refused_whole_and_repeated_ids_count_once() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let (status, body) = ada
            .post_json("/api/campaigns", json!({ "name": "n".repeat(1_500_000) }))
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Name must be at most 200 characters")
            )
        );
        assert_eq!(ada.get_json("/api/campaigns").await.1, json!([]));
        let (status, body) = ada
            .post_json(
                "/api/email-templates",
                json!({ "name": "Big", "subject": "s".repeat(1_000_000), "objective": "Lead Generation",
                        "tone": "friendly", "body": "<p>Hi</p>" }),
            )
            .await;
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("Subject must be at most 500 characters")
            )
        );

        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Limits" }))
            .await;
        let id = campaign["id"].as_i64().unwrap();
        let many: Vec<i64> = (1..=200_000).collect();
        let response = ada
            .send(
                ada.http
                    .put(ada.url(&format!("/api/campaigns/{id}")))
                    .json(&json!({ "businessIds": many })),
            )
            .await;
        let (status, body) = (response.status(), response.json::<Value>().await.unwrap());
        assert_eq!(
            (status, body["message"].as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Some("businessIds may have at most 10000 items")
            )
        );

        // A CSV row with a 9 MB field is reported and not imported; the good row is.
        let mut csv = b"name,email\nGood Oy,good@cafe.example\nHuge Oy,".to_vec();
        csv.extend(std::iter::repeat_n(b'x', 9 * 1024 * 1024));
        csv.extend_from_slice(b"\n");
        let (status, report) = ada.upload("/api/businesses/import", "leads.csv", csv).await;
        assert_eq!(status, StatusCode::OK, "{report}");
        assert_eq!(report["imported"], 1);
        assert_eq!(
            report["errors"],
            json!([{ "line": 3, "message": "a field is longer than 1000 characters" }])
        );

        // A launch naming one business many times sends it one email.
        let business = report["businesses"][0]["id"].as_i64().unwrap();
        let template = template(&ada, "Once").await;
        let (status, launched) = ada
            .post_json(
                "/api/campaigns/send",
                json!({ "campaignId": id, "templateId": template, "businessIds": vec![business; 9_999] }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{launched}");
        let (_, progress) = ada.get_json(&format!("/api/campaigns/{id}/progress")).await;
        assert_eq!(progress["progress"]["total"], 1, "{progress}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn personalisation_never_turns_data_into_markup_or_script_links() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        // Spintax whose options cut tags apart could rebuild attributes after sanitising: refused when saved.
        let (status, body) = ada
            .post_json(
                "/api/email-templates",
                json!({ "name": "Cut", "subject": "Hi", "objective": "Lead Generation", "tone": "friendly",
                        "body": "<p>{Hello</p><p>|Hi</p><p>} there</p>" }),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(
            body["message"],
            "Spintax and fallbacks cannot contain formatting or links: keep each {a|b} group within one piece of text"
        );

        let (status, template) = ada
            .post_json(
                "/api/email-templates",
                json!({ "name": "Site", "subject": "For {{businessName}}", "objective": "Lead Generation",
                        "tone": "friendly",
                        "body": "<p>Hello {{businessName}}, see <a href=\"{{website}}\">your site</a> {and|or} \
                                 <a href=\"{https://ok.example/a|javascript:alert(2)}\">ours</a></p>" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{template}");
        let id = template["id"].as_i64().unwrap();
        let evil = "<img src=x onerror=alert(1)>{a|<b onmouseover=alert(4)>}";
        let (status, preview) = ada
            .post_json(
                &format!("/api/email-templates/{id}/preview"),
                json!({ "businessName": evil, "website": "javascript:alert(3)" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let html = preview["body"].as_str().unwrap();
        assert_only_safe_markup(html);
        assert!(!html.contains("javascript:"), "{html}");
        assert!(
            html.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "the name is shown as text: {html}"
        );

        // The same in a sent message.
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Evil data" }))
            .await;
        html_and_tracking(&ada, &campaign).await;
        let mut csv = b"name,email,website\n".to_vec();
        csv.extend_from_slice(
            b"\"<img src=x onerror=alert(1)>\",info@sauna.example,javascript:alert(3)\n",
        );
        let (_, imported) = ada.upload("/api/businesses/import", "leads.csv", csv).await;
        let business = imported["businesses"][0]["id"].as_i64().unwrap();
        launch_and_finish(
            &ada,
            json!({ "campaignId": campaign["id"], "templateId": id, "businessIds": [business] }),
        )
        .await;
        let (_, outbox) = ada.get_json("/api/outbox").await;
        let sent = outbox[0]["htmlBody"].as_str().unwrap();
        let body = &sent[..sent.find("<p style=").expect("the footer follows the body")];
        assert_only_safe_markup(body.trim_start_matches("<!doctype html><html><body>"));
        assert!(!sent.contains("javascript:"), "{sent}");
        app.stop().await;
    })
    .await;
}

/// A TCP server on loopback that counts connections and says nothing (or `banner`) to each.
async fn listener(banner: Option<&'static str>) -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            tokio::spawn(async move {
                use tokio::io::AsyncWriteExt;
                if let Some(banner) = banner {
                    socket.write_all(banner.as_bytes()).await.ok();
                }
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
            });
        }
    });
    (port, accepted)
}

fn smtp_sender(host: &str, port: u16) -> Value {
    json!({ "emailProvider": "smtp", "emailSendFrom": "ada@bakery.example", "emailSendFromName": "Ada",
            "smtpHost": host, "smtpPort": port, "smtpSecurity": "none" })
}

#[tokio::test]
async fn the_sender_check_reaches_no_private_address_and_never_hangs_or_echoes() {
    each_backend(|test_db| async move {
        // No allowance for loopback here, as in production.
        let app = TestApp::start_with(test_db, |settings| {
            settings.sending.allow_hosts.clear();
            settings.sending.timeout_seconds = 1;
        })
        .await;
        let ada = active(&app, "ada").await;
        let (port, accepted) = listener(Some("+OK internal cache ready\r\n")).await;
        for host in [
            "127.0.0.1",
            "localhost",
            "169.254.169.254",
            "10.0.0.7",
            "[::1]",
        ] {
            let (status, body) = ada
                .post_json("/api/user/email-config", smtp_sender(host, port))
                .await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{host}: {body}");
            let message = body["message"].as_str().unwrap();
            assert!(
                message.contains("loopback, private or link-local")
                    && message.contains("only if the administrator allows it"),
                "{host}: {message}"
            );
        }
        let mut imap = smtp_sender("smtp.example.invalid", 25);
        imap["smtpHost"] = json!("93.184.216.34");
        imap["imapHost"] = json!("169.254.169.254");
        imap["imapPassword"] = json!("secret");
        let (status, body) = ada.post_json("/api/user/email-config", imap).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body["message"].as_str().unwrap().contains("IMAP"), "{body}");
        assert_eq!(
            accepted.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "no connection was made"
        );
        assert_eq!(ada.get_json("/api/user/email-configs").await.1, json!([]));
        let test_db = {
            app.server.abort();
            app.test_db
        };

        // Allowed (a local relay): a server that never greets is given up on, and what a non-SMTP one says is
        // not repeated.
        let app =
            TestApp::start_with(test_db, |settings| settings.sending.timeout_seconds = 1).await;
        let ada = active(&app, "ada").await;
        let (silent, _) = listener(None).await;
        let started = std::time::Instant::now();
        let (status, body) = ada
            .post_json("/api/user/email-config", smtp_sender("127.0.0.1", silent))
            .await;
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("did not answer within 1 second"),
            "{body}"
        );
        let (talkative, _) = listener(Some("+OK internal cache ready\r\n")).await;
        let (_, body) = ada
            .post_json(
                "/api/user/email-config",
                smtp_sender("127.0.0.1", talkative),
            )
            .await;
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains("does not answer as an SMTP server")
                && !message.contains("internal cache"),
            "{message}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_search_chunk_cut_off_before_its_log_is_written_leaves_nothing_half_done() {
    let extract = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/data/osm/Helsinki.osm.pbf"
    );
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        outreach_core::discovery::directory::import_osm(
            &app.ctx.db,
            std::path::Path::new(extract),
            1,
        )
        .await
        .unwrap();
        let ada = active(&app, "ada").await;
        let user = ada.get_json("/api/auth/user").await.1["id"]
            .as_i64()
            .unwrap();
        let params = outreach_core::discovery::search::SearchRequest {
            search_type: Some("local".into()),
            business_type: Some("cafe".into()),
            geographic_area: Some("Helsinki".into()),
            radius: Some(1),
            max_results: Some(50),
            ..Default::default()
        }
        .validate()
        .unwrap();
        let db = &app.ctx.db;
        let search = db
            .discovery()
            .insert_search(user, &params, app.clock.now_ms())
            .await
            .unwrap();
        let chunk = |chunk_number| outreach_core::platform::jobs::RunSearchChunk {
            search_id: search,
            chunk_number,
        };
        // The chunk is cut off after finding its businesses, before its log row is written (as a stop or a crash
        // would cut it): nothing of it may stay.
        app.test_db
            .execute("alter table search_logs rename to search_logs_away")
            .await;
        assert!(
            outreach_worker::handlers::run_search_chunk(&app.ctx, &chunk(1))
                .await
                .is_err()
        );
        app.test_db
            .execute("alter table search_logs_away rename to search_logs")
            .await;
        assert!(
            db.discovery()
                .businesses_of_search(search)
                .await
                .unwrap()
                .is_empty()
        );
        // Its retry, and the next chunk.
        outreach_worker::handlers::run_search_chunk(&app.ctx, &chunk(1))
            .await
            .unwrap();
        outreach_worker::handlers::run_search_chunk(&app.ctx, &chunk(2))
            .await
            .unwrap();
        let row = db.discovery().load_search(search).await.unwrap().unwrap();
        let found = db
            .discovery()
            .businesses_of_search(search)
            .await
            .unwrap()
            .len();
        let logs = db.discovery().search_logs(user, 100).await.unwrap();
        let logged: i32 = logs.iter().map(|log| log.businesses_found).sum();
        let mut chunks: Vec<i32> = logs.iter().map(|log| log.chunk_number).collect();
        chunks.sort();
        assert_eq!(
            (
                row.status.as_str(),
                row.chunks_done,
                found,
                logged as usize,
                chunks
            ),
            ("complete", 2, 50, 50, vec![1, 2]),
            "{}",
            db.backend()
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_bombs_and_broken_pdfs_get_a_clear_refusal_and_the_server_keeps_answering() {
    use outreach_core::campaigns::education::fixtures;
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = Arc::new(active(&app, "ada").await);
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Bombs" }))
            .await;
        let files = format!("/api/campaigns/{}/education-files", campaign["id"]);
        // Two bombs at once, and the health check meanwhile.
        let uploads: Vec<_> = (0..2)
            .map(|n| {
                let (ada, files) = (ada.clone(), files.clone());
                tokio::spawn(async move {
                    ada.upload(&files, &format!("bomb{n}.pdf"), fixtures::pdf_bomb(20))
                        .await
                })
            })
            .collect();
        assert_eq!(app.browser().get_json("/healthz").await.0, StatusCode::OK);
        for (n, upload) in uploads.into_iter().enumerate() {
            let (status, body) = upload.await.unwrap();
            assert_eq!(
                (status, body["message"].as_str()),
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Some(
                        format!(
                            "bomb{n}.pdf is too large or too complex to read once unpacked. Please upload a shorter \
                             PDF, or save its text as a .txt file."
                        )
                        .as_str()
                    )
                )
            );
        }
        // A malformed PDF that made the reader panic (and dropped the connection) is a 422.
        let (status, body) = ada
            .upload(&files, "broken.pdf", fixtures::pdf_without_media_box())
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("broken.pdf could not be read")
        );
        let (_, kept) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        assert_eq!(kept["aiEducationFiles"], json!([]), "nothing was kept");
        app.stop().await;
    })
    .await;
}
