//! Icebreakers (issue 82): lines written from facts of websites served locally (saved sites of the labelled set),
//! every quote on its page and every number in a quote; a site without facts gets a 404; edits, drops and new
//! lines; and a campaign whose template uses `{{icebreaker | …}}` delivers each prospect's line or the fallback.

use super::*;

/// Serves a saved site of `core/data/icebreakers/<set>/<name>` on `ip` (a free port): its host.
async fn serve_saved_site(set: &str, name: &str, ip: &str) -> String {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/data/icebreakers")
        .join(set)
        .join(name);
    let site: Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("site.json")).unwrap()).unwrap();
    let pages: std::collections::HashMap<String, String> = site["pages"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(path, file)| {
            let html = std::fs::read_to_string(folder.join(file.as_str().unwrap())).unwrap();
            (path.clone(), html)
        })
        .collect();
    let pages = Arc::new(pages);
    let app = axum::Router::new().fallback(move |uri: axum::http::Uri| {
        let pages = pages.clone();
        async move {
            use axum::response::IntoResponse;
            match pages.get(uri.path()) {
                Some(html) => axum::response::Html(html.clone()).into_response(),
                None => axum::http::StatusCode::NOT_FOUND.into_response(),
            }
        }
    });
    let listener = tokio::net::TcpListener::bind(format!("{ip}:0"))
        .await
        .unwrap();
    let host = format!("{ip}:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    host
}

fn numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|run| !run.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every source of a line: its quote is on its page (fetched again, read as plain text), its claim is in its quote,
/// and every number of the line is in a quote.
async fn assert_traced(line: &Value) {
    let text = line["text"].as_str().unwrap();
    let facts = line["facts"].as_array().unwrap();
    assert!(!facts.is_empty(), "{line}");
    let mut quotes = String::new();
    for fact in facts {
        let (url, quote, claim) = (
            fact["url"].as_str().unwrap(),
            fact["quote"].as_str().unwrap(),
            fact["claim"].as_str().unwrap(),
        );
        let html = reqwest::get(url).await.unwrap().text().await.unwrap();
        let page = outreach_core::discovery::facts::eval::plain_text(&html);
        assert!(page.contains(quote), "“{quote}” is not on {url}");
        assert!(quote.contains(claim), "{fact}");
        quotes.push_str(quote);
        quotes.push(' ');
    }
    for number in numbers(text) {
        assert!(
            numbers(&quotes).contains(&number),
            "{number} of “{text}” is in no quote"
        );
    }
}

#[tokio::test]
async fn lines_from_local_websites_traced_to_their_sentences_edited_dropped_and_sent() {
    let bluebird = serve_saved_site("dev", "bluebird-coffee", "127.0.0.1").await;
    let pulla = serve_saved_site("dev", "kahvila-pulla", "127.0.0.2").await;
    let physio = serve_saved_site("dev", "harbour-physio", "127.0.0.3").await;
    each_backend(|test_db| {
        let (bluebird, pulla, physio) = (bluebird.clone(), pulla.clone(), physio.clone());
        async move {
            let allowed = vec![bluebird.clone(), pulla.clone(), physio.clone()];
            let app = TestApp::start_with(test_db, move |settings| {
                settings.crawler.allow_hosts = allowed;
            })
            .await;
            let ada = active(&app, "ada").await;
            let file = format!(
                "name,email,website\nBluebird Coffee,hello@bluebird.example,http://{bluebird}/\n\
                 Kahvila Pulla,moi@pulla.example,http://{pulla}/\nHarbour Physio,desk@physio.example,http://{physio}/\n"
            );
            let (_, imported) = ada.upload("/api/businesses/import", "leads.csv", file.into_bytes()).await;
            let id = |name: &str| {
                imported["businesses"].as_array().unwrap().iter()
                    .find(|b| b["name"] == name).unwrap()["id"].as_i64().unwrap()
            };
            let (bluebird_id, pulla_id, physio_id) = (id("Bluebird Coffee"), id("Kahvila Pulla"), id("Harbour Physio"));
            let workers = start_workers(&app);
            // Imported with their addresses, the businesses' sites are still read on their own, for the facts.
            for id in [bluebird_id, pulla_id] {
                let path = format!("/api/businesses/{id}/icebreaker");
                let mut read = ada.get_json(&path).await;
                for _ in 0..200 {
                    if read.0 == StatusCode::OK {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    read = ada.get_json(&path).await;
                }
                assert_eq!(read.0, StatusCode::OK, "{}", read.1);
            }
            // The address the file gave stays, as given.
            let (_, listed) = ada.get_json("/api/businesses").await;
            let bluebird_row = listed.as_array().unwrap().iter().find(|b| b["id"] == bluebird_id).unwrap().clone();
            assert_eq!((bluebird_row["email"].as_str(), bluebird_row["emailStatus"].as_str()), (Some("hello@bluebird.example"), Some("found")), "{bluebird_row}");
            // Reading the sites: a line whose every quote is on its page, in the site's language; none without facts.
            for id in [bluebird_id, pulla_id] {
                let (status, line) = ada.post_json(&format!("/api/businesses/{id}/icebreaker"), json!({})).await;
                assert_eq!(status, StatusCode::OK, "{line}");
            }
            let (status, _) = ada.post_json(&format!("/api/businesses/{physio_id}/icebreaker"), json!({})).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            let (status, line) = ada.get_json(&format!("/api/businesses/{bluebird_id}/icebreaker")).await;
            assert_eq!(status, StatusCode::OK, "{line}");
            assert_eq!((line["language"].as_str(), line["origin"].as_str()), (Some("en"), Some("offline")));
            assert_eq!(line["text"], "Congratulations on Helsinki Barista Cup 2026 – well deserved.");
            assert_traced(&line).await;
            assert!(line["allFacts"].as_array().unwrap().len() >= 5, "{line}");
            let (status, finnish) = ada.get_json(&format!("/api/businesses/{pulla_id}/icebreaker")).await;
            assert_eq!(status, StatusCode::OK, "{finnish}");
            assert_eq!(finnish["language"], "fi");
            assert_traced(&finnish).await;
            // No facts, no line.
            let (status, none) = ada.get_json(&format!("/api/businesses/{physio_id}/icebreaker")).await;
            assert_eq!((status, none["error"].as_str()), (StatusCode::NOT_FOUND, Some("no_icebreaker")), "{none}");

            // A campaign in English: each prospect's own line (the Finnish site's written in English), or the fallback.
            let (_, template) = ada.post_json("/api/email-templates", json!({
                "name": "Bread", "subject": "Bread for {{businessName}}", "objective": "Partnership Proposal",
                "tone": "friendly", "emailSignature": "Ada",
                "body": "<p>{{icebreaker | Hope the week is going well.}}</p><p>We bake bread for cafés like yours and deliver it every morning.</p>"
            })).await;
            let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
            let (_, progress) = launch_and_finish(&ada, json!({
                "campaignId": campaign["id"], "templateId": template["id"],
                "businessIds": [bluebird_id, pulla_id, physio_id]
            })).await;
            assert_eq!(progress["progress"]["sent"], 3, "{progress}");
            let (_, outbox) = ada.get_json("/api/outbox").await;
            // New campaigns send plain text (issue 81): the outbox keeps the text, and the HTML when there is one.
            let body_to = |address: &str| {
                let message = outbox.as_array().unwrap().iter().find(|m| m["toEmail"] == address)
                    .unwrap_or_else(|| panic!("{address} in {outbox}"));
                format!("{}\n{}", message["htmlBody"].as_str().unwrap_or_default(), message["textBody"].as_str().unwrap_or_default())
            };
            assert!(body_to("hello@bluebird.example").contains("Congratulations on Helsinki Barista Cup 2026 – well deserved."));
            let pulla_body = body_to("moi@pulla.example");
            assert!(pulla_body.contains("I saw your news: “Avasimme toisen kahvilan Kallioon”"), "{pulla_body}");
            assert!(body_to("desk@physio.example").contains("Hope the week is going well."));

            // Edits: too long or an unknown variable is a 400 with the reason; a good one is kept through a new crawl.
            let path = format!("/api/businesses/{bluebird_id}/icebreaker");
            let (status, refused) = ada.put_json(&path, json!({ "text": "x".repeat(301) })).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
            assert!(refused["message"].as_str().unwrap().contains("300"), "{refused}");
            let (status, refused) = ada.put_json(&path, json!({ "text": "Hi {{firstName}}" })).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
            assert!(refused["message"].as_str().unwrap().contains("firstName"), "{refused}");
            let (status, edited) = ada.put_json(&path, json!({ "text": "Loved the cardamom buns at {{businessName}}." })).await;
            assert_eq!((status, edited["origin"].as_str()), (StatusCode::OK, Some("edited")), "{edited}");
            app.clock.advance(1_000);
            let (status, _) = ada.post_json(&format!("/api/businesses/{bluebird_id}/social-media"), json!({})).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(ada.get_json(&path).await.1["text"], "Loved the cardamom buns at {{businessName}}.");
            // Asking for a new line replaces the edit, here in German.
            app.clock.advance(1_000);
            let (status, german) = ada.post_json(&path, json!({ "language": "de" })).await;
            assert_eq!(status, StatusCode::OK, "{german}");
            assert_eq!((german["language"].as_str(), german["origin"].as_str()), (Some("de"), Some("offline")));
            assert_eq!(german["text"], "Herzlichen Glückwunsch: Helsinki Barista Cup 2026 – das ist verdient.");
            assert_traced(&german).await;
            let (status, _) = ada.post_json(&path, json!({ "language": "sv" })).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            // Dropped: the fallback is sent.
            let (status, dropped) = ada.put_json(&path, json!({ "text": "" })).await;
            assert_eq!((status, dropped["origin"].as_str(), dropped["text"].as_str()), (StatusCode::OK, Some("dropped"), Some("")));
            let (status, preview) = ada.post_json("/api/email-templates/preview", json!({
                "subject": "Hi", "body": "<p>{{icebreaker | Hope the week is going well.}}</p>", "businessId": bluebird_id
            })).await;
            assert_eq!(status, StatusCode::OK, "{preview}");
            assert_eq!(preview["body"], "<p>Hope the week is going well.</p>");
            // A site that gives nothing now: a new line is a 404, and nothing is kept.
            app.clock.advance(1_000);
            let (status, _) = ada.post_json(&format!("/api/businesses/{physio_id}/icebreaker"), json!({})).await;
            assert_eq!(status, StatusCode::NOT_FOUND);

            // Another user sees none of it.
            let eve = active(&app, "eve").await;
            assert_eq!(eve.get_json(&path).await.0, StatusCode::NOT_FOUND);
            assert_eq!(eve.put_json(&path, json!({ "text": "Mine" })).await.0, StatusCode::NOT_FOUND);
            assert_eq!(eve.post_json(&path, json!({})).await.0, StatusCode::NOT_FOUND);
            workers.stop().await;
            app.stop().await;
        }
    })
    .await;
}
