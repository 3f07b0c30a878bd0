//! Searches in chunks over the directory and online sources, lead imports and website enrichment.

use super::*;

#[tokio::test]
async fn local_searches_run_in_chunks_on_the_offline_directory() {
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
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Cafés" }))
            .await;

        for (body, message) in [
            (json!({}), "Search type is required"),
            (
                json!({ "searchType": "local", "geographicArea": "Helsinki", "radius": 5 }),
                "Business type is required",
            ),
            (
                json!({ "searchType": "local", "businessType": "cafe", "radius": 5 }),
                "Geographic area is required",
            ),
            (
                json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki" }),
                "Search radius is required",
            ),
            (
                json!({ "searchType": "online", "topics": "bread" }),
                "Online business type is required",
            ),
            (
                json!({ "searchType": "online", "onlineBusinessType": "podcasters" }),
                "Topics are required",
            ),
        ] {
            let (status, answer) = ada.post_json("/api/businesses/search", body).await;
            assert_eq!(
                (status, answer["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message))
            );
        }

        let request = json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "maxResults": 30, "campaignId": campaign["id"] });
        let (status, first_chunk) = ada
            .post_json("/api/businesses/search", request.clone())
            .await;
        // The answer comes with the first chunk; the rest is polled, with progress.
        assert!(
            matches!(status, StatusCode::OK | StatusCode::ACCEPTED),
            "{first_chunk}"
        );
        assert!(first_chunk["chunksDone"].as_i64().unwrap() >= 1);
        assert!(first_chunk["businesses"].as_array().unwrap().len() >= 25);
        let result = ada.search_to_the_end(first_chunk).await;
        assert_eq!(
            (
                result["status"].as_str(),
                result["chunksTotal"].as_i64(),
                result["chunksDone"].as_i64()
            ),
            (Some("complete"), Some(2), Some(2))
        );
        let businesses = result["businesses"].as_array().unwrap();
        assert_eq!(businesses.len(), 30, "25 + 5 across two chunks");
        let ids: std::collections::HashSet<i64> = businesses
            .iter()
            .map(|b| b["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids.len(), 30, "no business twice");
        assert_eq!(businesses[0]["provenance"]["provider"], "directory");
        assert!(
            businesses[0]["provenance"]["sourceUrl"]
                .as_str()
                .unwrap()
                .starts_with("https://www.openstreetmap.org/")
        );
        assert!(
            result["attribution"]
                .as_str()
                .unwrap()
                .contains("OpenStreetMap")
        );

        let (_, updated) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        assert_eq!(
            (
                updated["status"].as_str(),
                updated["geographicArea"].as_str(),
                updated["radius"].as_i64(),
                updated["maxResults"].as_i64()
            ),
            (Some("searching"), Some("Helsinki"), Some(1), Some(30))
        );

        let (_, logs) = ada.get_json("/api/search-logs").await;
        let logs = logs.as_array().unwrap();
        assert_eq!(logs.len(), 2);
        let (second, first) = (&logs[0], &logs[1]);
        assert_eq!(
            (
                first["chunkNumber"].as_i64(),
                first["businessesFound"].as_i64(),
                first["excludedItems"].as_str()
            ),
            (Some(1), Some(25), Some(""))
        );
        assert_eq!(
            (
                second["chunkNumber"].as_i64(),
                second["businessesFound"].as_i64(),
                second["maxResults"].as_i64()
            ),
            (Some(2), Some(5), Some(5))
        );
        assert_eq!(
            second["excludedItems"]
                .as_str()
                .unwrap()
                .split(", ")
                .count(),
            25,
            "chunk 2 excluded chunk 1's finds"
        );
        assert_eq!(first["searchTerm"], "cafe in Helsinki");
        assert!(first["query"].as_str().unwrap().contains("amenity=cafe"));
        assert_eq!(first["businessData"].as_array().unwrap().len(), 25);

        // The same search again finds the same businesses without duplicating them.
        let (_, again) = ada.post_json("/api/businesses/search", request).await;
        let again = ada.search_to_the_end(again).await;
        assert_eq!(again["businesses"].as_array().unwrap().len(), 30);
        assert_eq!(
            ada.get_json("/api/businesses")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            30
        );
        assert_eq!(
            ada.get_json("/api/businesses/recent")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            30
        );

        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Nowhere-upon-Nothing", "radius": 5 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .starts_with("Nowhere-upon-Nothing was not found in the offline directory"),
            "{failed}"
        );
        // The gazetteer knows Austin, the Helsinki extract has nothing there: the message says what to import.
        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Austin, TX", "radius": 5 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            failed["message"],
            "No businesses near Austin, TX are in the offline directory. Import an OpenStreetMap extract that covers it.",
        );
        let (status, online) = ada.post_json("/api/businesses/search", json!({ "searchType": "online", "onlineBusinessType": "podcasters", "topics": "baking" })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            online["message"]
                .as_str()
                .unwrap()
                .starts_with("Online searches need the AI web search"),
            "{online}"
        );

        let eve = active(&app, "eve").await;
        let search_id = result["searchId"].as_i64().unwrap();
        assert_eq!(
            eve.get_json(&format!("/api/businesses/search/{search_id}"))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            eve.post_json(
                &format!("/api/businesses/search/{search_id}/cancel"),
                json!({})
            )
            .await
            .0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(eve.get_json("/api/businesses").await.1, json!([]));
        assert_eq!(eve.get_json("/api/search-logs").await.1, json!([]));
        let other_campaign = json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "campaignId": campaign["id"] });
        assert_eq!(
            eve.post_json("/api/businesses/search", other_campaign)
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn lead_csv_imports_skip_duplicates_and_report_bad_rows() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let ada = active(&app, "ada").await;
        let file = "name,email,website,phone,city\nCafé Ursula,hello@ursula.fi,https://www.ursula.fi,+358 9 652 817,Helsinki\n,nobody@x.fi,,,\nKahvila,bad-email,,,\nUrsula again,,ursula.fi,,\n\
                    Acme Sales,anna@acme.test,https://acme.test,,\nAcme Support,bob@acme.test,https://acme.test/support,,\n\
                    Acme Sales again,ANNA@acme.test,acme.test,,\n";
        let (status, result) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                file.as_bytes().to_vec(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{result}");
        // Two people of one company are two leads; the same address on the same site is one.
        assert_eq!(
            (result["imported"].as_i64(), result["skipped"].as_i64()),
            (Some(3), Some(4)),
            "{result}"
        );
        assert_eq!(
            result["errors"],
            json!([{ "line": 3, "message": "name is required" }, { "line": 4, "message": "bad-email is not a valid email address" }])
        );
        assert_eq!(
            result["duplicates"],
            json!([
                { "line": 5, "message": "already in your businesses as Café Ursula" },
                { "line": 8, "message": "already in your businesses as Acme Sales" }
            ])
        );
        // Newest first: the file's first row is last.
        let ursula = result["businesses"].as_array().unwrap().last().unwrap();
        assert_eq!(ursula["provenance"]["provider"], "import");
        assert_eq!(ursula["email"], "hello@ursula.fi");

        let (status, body) = ada
            .upload(
                "/api/businesses/import",
                "leads.csv",
                b"email\na@b.co\n".to_vec(),
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body["message"].as_str().unwrap().contains("name column"));
        assert_eq!(
            ada.get_json("/api/businesses")
                .await
                .1
                .as_array()
                .unwrap()
                .len(),
            3,
            "a refused file imports nothing"
        );

        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json("/api/businesses").await.1, json!([]));
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn imported_businesses_are_enriched_from_their_website() {
    use axum::response::Html;
    let site = axum::Router::new()
        .route("/", axum::routing::get(|| async { Html(r#"<a href="/contact">Contact</a><a href="https://www.instagram.com/nordicbakery/">ig</a>"#) }))
        .route("/contact", axum::routing::get(|| async { Html("<p>Old: old@closed-bakery.example. Orders: orders [at] nordic-bakery.fi</p>") }));
    // A second site on another loopback address, so the two websites are different businesses.
    let no_mail_site = axum::Router::new().route(
        "/",
        axum::routing::get(|| async { Html("<p>Write to info@nomail.example</p>") }),
    );
    let no_mail_listener = tokio::net::TcpListener::bind("127.0.0.2:0").await.unwrap();
    let no_mail_host = format!(
        "127.0.0.2:{}",
        no_mail_listener.local_addr().unwrap().port()
    );
    tokio::spawn(async move { axum::serve(no_mail_listener, no_mail_site).await.unwrap() });
    let dns = outreach_core::testing::fake_dns(vec![
        (
            "nordic-bakery.fi",
            outreach_core::testing::DnsAnswer::Exchanges(vec!["mx.nordic-bakery.fi."]),
        ),
        ("nomail.example", outreach_core::testing::DnsAnswer::NullMx),
    ])
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let site_host = format!("127.0.0.1:{}", listener.local_addr().unwrap().port());
    tokio::spawn(async move { axum::serve(listener, site).await.unwrap() });

    each_backend(|test_db| {
        let (site_host, no_mail_host) = (site_host.clone(), no_mail_host.clone());
        async move {
        let allowed = vec![site_host.clone(), no_mail_host.clone()];
        let app = TestApp::start_with(test_db, move |settings| {
            settings.crawler.allow_hosts = allowed;
            settings.crawler.dns_servers = vec![dns.to_string()];
        })
        .await;
        let ada = active(&app, "ada").await;
        // The last site is loopback too, but not allowed: the crawler refuses it.
        let file = format!(
            "name,website\nNordic Bakery,http://{site_host}/\nNo Mail Cafe,http://{no_mail_host}/\nSneaky,http://localhost:9/\n"
        );
        let (_, imported) = ada
            .upload("/api/businesses/import", "leads.csv", file.into_bytes())
            .await;
        let statuses: Vec<&str> = imported["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["emailStatus"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["pending", "pending", "pending"], "{imported}");

        outreach_worker::run_until_idle(app.ctx.clone(), std::time::Duration::from_secs(60))
            .await
            .unwrap();
        let (_, list) = ada.get_json("/api/businesses").await;
        let bakery = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "Nordic Bakery")
            .unwrap();
        assert_eq!(
            (bakery["email"].as_str(), bakery["emailStatus"].as_str()),
            (Some("orders@nordic-bakery.fi"), Some("found")),
            "{bakery}"
        );
        assert!(
            bakery["emailSource"]
                .as_str()
                .unwrap()
                .ends_with("/contact")
        );
        // The first address's domain does not exist; the second takes mail, so it is the one kept.
        assert_eq!(bakery["emailVerdict"], "deliverable");
        let no_mail = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "No Mail Cafe")
            .unwrap();
        // A verdict never discards an address: the only one found stays, marked.
        assert_eq!(
            (no_mail["email"].as_str(), no_mail["emailVerdict"].as_str()),
            (Some("info@nomail.example"), Some("no_mx")),
            "{no_mail}"
        );
        assert_eq!(
            bakery["socialMedia"],
            json!([{ "platform": "instagram", "handle": "nordicbakery", "url": "https://www.instagram.com/nordicbakery/" }])
        );
        let sneaky = list
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == "Sneaky")
            .unwrap();
        assert_eq!(
            (sneaky["email"].clone(), sneaky["emailStatus"].as_str()),
            (Value::Null, Some("not_found"))
        );
        // Why nothing was found: this site could not be read at all; the others were read.
        assert!(
            sneaky["websiteError"]
                .as_str()
                .is_some_and(|error| error.contains("localhost")),
            "{sneaky}"
        );
        assert_eq!(
            (bakery["websiteError"].clone(), no_mail["websiteError"].clone()),
            (Value::Null, Value::Null)
        );

        // The on-demand social lookup reads the site again.
        let _workers = start_workers(&app);
        let id = bakery["id"].as_i64().unwrap();
        let (status, social) = ada
            .post_json(&format!("/api/businesses/{id}/social-media"), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{social}");
        assert_eq!(social["socialMedia"][0]["platform"], "instagram");
        let eve = active(&app, "eve").await;
        assert_eq!(
            eve.post_json(&format!("/api/businesses/{id}/social-media"), json!({}))
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        app.stop().await;
        }
    })
    .await;
}

#[tokio::test]
async fn searches_use_openstreetmap_online_when_configured_and_fall_back_to_the_directory() {
    each_backend(|test_db| async move {
        let osm = MockServer::start().await;
        Mock::given(method("GET")).and(path("/search")).and(wiremock::matchers::query_param("q", "Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([{ "lat": "60.1674881", "lon": "24.9427473", "display_name": "Helsinki, Finland" }])))
            .mount(&osm).await;
        Mock::given(method("GET"))
            .and(path("/search"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .mount(&osm)
            .await;
        Mock::given(method("POST")).and(path("/api/interpreter"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "elements": [
                { "type": "node", "id": 11, "lat": 60.1680, "lon": 24.9430, "tags": { "amenity": "cafe", "name": "Online Café", "website": "https://online-cafe.example" } },
                { "type": "way", "id": 12, "center": { "lat": 60.1690, "lon": 24.9440 }, "tags": { "amenity": "cafe", "name": "Way Café" } }
            ]})))
            .mount(&osm).await;
        let uri = osm.uri();
        let app = TestApp::start_with(test_db, move |settings| {
            settings.search.providers = vec![SearchProvider::Osm, SearchProvider::Directory];
            settings.search.nominatim_url = uri.clone();
            settings.search.overpass_url = uri;
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;
        let (status, result) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki", "radius": 1, "maxResults": 10 })).await;
        assert_eq!(status, StatusCode::OK, "{result}");
        let names: Vec<&str> = result["businesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Online Café", "Way Café"]);
        assert_eq!(result["businesses"][0]["provenance"]["provider"], "osm");
        assert_eq!(
            result["businesses"][1]["provenance"]["sourceUrl"],
            "https://www.openstreetmap.org/way/12"
        );

        // Nominatim does not know the area: the offline directory is asked next (and it is empty here).
        let (status, failed) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Nowhere", "radius": 1 })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            failed["message"]
                .as_str()
                .unwrap()
                .contains("offline directory"),
            "{failed}"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn searches_use_google_places_and_online_searches_use_the_ai_web_search() {
    each_backend(|test_db| async move {
        let fake = MockServer::start().await;
        let is_text_query = |query: &'static str| {
            move |request: &Request| {
                serde_json::from_slice::<Value>(&request.body)
                    .is_ok_and(|body| body["textQuery"] == query)
            }
        };
        Mock::given(method("POST")).and(path("/v1/places:searchText")).and(header("X-Goog-Api-Key", "places-key"))
            .and(is_text_query("Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
                { "displayName": { "text": "Helsinki" }, "location": { "latitude": 60.1699, "longitude": 24.9384 } }
            ]})))
            .mount(&fake).await;
        Mock::given(method("POST")).and(path("/v1/places:searchText")).and(header("X-Goog-Api-Key", "places-key"))
            .and(is_text_query("bakery in Helsinki"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
                { "id": "G1", "displayName": { "text": "Google Bakery" }, "formattedAddress": "Mannerheimintie 1, Helsinki",
                  "internationalPhoneNumber": "+358 9 111111", "location": { "latitude": 60.1700, "longitude": 24.9390 },
                  "googleMapsUri": "https://maps.google.com/?cid=1" }
            ]})))
            .mount(&fake).await;
        Mock::given(method("POST")).and(path("/v1/responses")).and(header("authorization", "Bearer sk-test"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "output": [
                { "type": "web_search_call", "id": "ws_1", "status": "completed" },
                { "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": json!({ "businesses": [
                    { "name": "Crumb Cast", "website": "https://crumbcast.example", "email": "hello@crumbcast.example", "phone": null,
                      "address": null, "city": null, "category": "Podcast", "sourceUrl": "https://crumbcast.example/about" }
                ]}).to_string() }] }
            ]})))
            .mount(&fake).await;
        let uri = fake.uri();
        let app = TestApp::start_with(test_db, move |settings| {
            settings.search.providers = vec![SearchProvider::Google, SearchProvider::Directory];
            settings.search.google_places_url = uri.clone();
            settings.search.google_places_api_key =
                outreach_core::platform::config::Secret::new("places-key");
            settings.ai.provider = AiProvider::OpenAi;
            settings.ai.base_url = format!("{uri}/v1");
            settings.ai.api_key = outreach_core::platform::config::Secret::new("sk-test");
        })
        .await;
        let _workers = start_workers(&app);
        let ada = active(&app, "ada").await;

        let (status, local) = ada.post_json("/api/businesses/search", json!({ "searchType": "local", "businessType": "bakery", "geographicArea": "Helsinki", "radius": 5, "maxResults": 10 })).await;
        assert_eq!(status, StatusCode::OK, "{local}");
        assert_eq!(local["status"], "complete", "{local}");
        let bakery = &local["businesses"][0];
        assert_eq!(bakery["name"], "Google Bakery");
        assert_eq!(bakery["phone"], "+358 9 111111");
        assert_eq!(bakery["provenance"]["provider"], "google");
        assert_eq!(
            bakery["provenance"]["sourceUrl"],
            "https://maps.google.com/?cid=1"
        );
        assert_eq!(local["attribution"], "Google Maps");

        let (_, campaign) = ada
            .post_json("/api/campaigns", json!({ "name": "Podcasts" }))
            .await;
        let (status, online) = ada.post_json("/api/businesses/search", json!({ "searchType": "online", "onlineBusinessType": "podcasters", "topics": ["sourdough", "baking"], "campaignId": campaign["id"] })).await;
        assert_eq!(status, StatusCode::OK, "{online}");
        assert_eq!(online["status"], "complete", "{online}");
        let creator = &online["businesses"][0];
        assert_eq!(
            (creator["name"].as_str(), creator["email"].as_str()),
            (Some("Crumb Cast"), Some("hello@crumbcast.example"))
        );
        assert_eq!(creator["provenance"]["provider"], "ai_web_search");
        assert_eq!(
            creator["provenance"]["query"],
            "podcasters about sourdough, baking"
        );
        let (_, campaign) = ada
            .get_json(&format!("/api/campaigns/{}", campaign["id"]))
            .await;
        assert_eq!(campaign["geographicArea"], "online", "{campaign}");

        let (_, logs) = ada.get_json("/api/search-logs").await;
        let online_log = logs
            .as_array()
            .unwrap()
            .iter()
            .find(|log| log["searchType"] == "online")
            .unwrap();
        let query: Value = serde_json::from_str(online_log["query"].as_str().unwrap()).unwrap();
        assert_eq!(query["provider"], "ai_web_search");
        assert_eq!(query["topics"], "sourdough, baking");
        assert!(
            online_log["rawResponse"]
                .as_str()
                .unwrap()
                .contains("crumbcast.example/about"),
            "{online_log}"
        );
        app.stop().await;
    })
    .await;
}
