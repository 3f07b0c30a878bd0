//! Google Places (New) Text Search against a local fake (wiremock): the request (key and field mask headers, text
//! query, location-bias circle, paging with the same parameters plus the token), the conversion of places into
//! businesses, the radius and exclusion rules, and the API's error answers.

use std::collections::HashSet;

use outreach_core::discovery::sources::SourceError;
use outreach_core::discovery::sources::google::{GooglePlaces, Request};
use outreach_core::platform::config::{SearchSettings, Secret};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const HELSINKI: (f64, f64) = (60.1699, 24.9384);

fn client(server: &MockServer) -> GooglePlaces {
    GooglePlaces::new(&SearchSettings {
        google_places_url: server.uri(),
        google_places_api_key: Secret::new("places-key"),
        ..SearchSettings::default()
    })
    .expect("a key is configured")
}

fn request() -> Request<'static> {
    Request {
        business_type: "cafe",
        area: "Helsinki",
        centre: HELSINKI,
        radius_km: 1.609_344,
    }
}

/// A place as the API returns it with the field mask.
fn place(id: &str, name: &str, lat: f64, lon: f64) -> Value {
    json!({
        "id": id,
        "displayName": { "text": name, "languageCode": "fi" },
        "formattedAddress": format!("{name}katu 1, 00100 Helsinki, Finland"),
        "addressComponents": [
            { "longText": "1", "shortText": "1", "types": ["street_number"], "languageCode": "fi" },
            { "longText": "Helsinki", "shortText": "HKI", "types": ["locality", "political"], "languageCode": "fi" }
        ],
        "nationalPhoneNumber": "09 1234567",
        "internationalPhoneNumber": "+358 9 1234567",
        "websiteUri": format!("https://{}.example/", id.to_lowercase()),
        "rating": 4.5,
        "location": { "latitude": lat, "longitude": lon },
        "primaryTypeDisplayName": { "text": "Coffee Shop", "languageCode": "en" },
        "googleMapsUri": format!("https://maps.google.com/?cid={id}")
    })
}

fn body_of(request: &wiremock::Request) -> Value {
    serde_json::from_slice(&request.body).unwrap()
}

#[tokio::test]
async fn text_search_sends_the_query_bias_and_field_mask_and_reads_places() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(header("X-Goog-Api-Key", "places-key"))
        .and(|request: &wiremock::Request| {
            let mask = request
                .headers
                .get("X-Goog-FieldMask")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            mask.contains("places.id")
                && mask.contains("places.websiteUri")
                && mask.contains("nextPageToken")
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
            place("ChIJA", "Kahvila Aalto", 60.1705, 24.9410),
            // Outside the 1-mile radius (Espoo): the bias is a preference, the radius is the user's rule.
            place("ChIJB", "Espoon Kahvila", 60.2055, 24.6559),
            { "id": "ChIJC" }
        ]})))
        .expect(1)
        .mount(&server)
        .await;
    let hits = client(&server)
        .search(&request(), "cafe in Helsinki", 10, &HashSet::new())
        .await
        .unwrap();
    let sent = body_of(&server.received_requests().await.unwrap()[0]);
    assert_eq!(sent["textQuery"], "cafe in Helsinki");
    assert_eq!(sent["pageSize"], 20);
    assert_eq!(
        sent["locationBias"]["circle"]["center"]["latitude"],
        HELSINKI.0
    );
    assert!((sent["locationBias"]["circle"]["radius"].as_f64().unwrap() - 1609.344).abs() < 1e-6);
    assert!(sent.get("pageToken").is_none());

    assert_eq!(hits.len(), 1, "{hits:?}");
    let business = &hits[0].candidate;
    assert_eq!(business.name, "Kahvila Aalto");
    assert_eq!(business.provider, "google");
    assert_eq!(business.provider_place_id.as_deref(), Some("google:ChIJA"));
    assert_eq!(business.phone.as_deref(), Some("+358 9 1234567"));
    assert_eq!(business.website.as_deref(), Some("https://chija.example/"));
    assert_eq!(business.city.as_deref(), Some("Helsinki"));
    assert_eq!(business.category.as_deref(), Some("Coffee Shop"));
    assert_eq!(business.rating, Some(4.5));
    assert_eq!(business.query, "cafe in Helsinki");
    assert_eq!(
        business.source_url.as_deref(),
        Some("https://maps.google.com/?cid=ChIJA")
    );
    assert_eq!(hits[0].raw["id"], "ChIJA");
}

#[tokio::test]
async fn pages_follow_the_token_skip_excluded_places_and_stop_at_the_limit() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(|request: &wiremock::Request| body_of(request).get("pageToken").is_none())
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "places": [place("P1", "Yksi", 60.1700, 24.9390), place("P2", "Kaksi", 60.1701, 24.9391)],
            "nextPageToken": "page-two"
        })))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(|request: &wiremock::Request| {
            let body = body_of(request);
            // The token comes with the first request's parameters, unchanged.
            body["pageToken"] == "page-two" && body["textQuery"] == "cafe in Helsinki" && body["pageSize"] == 20
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "places": [place("P3", "Kolme", 60.1702, 24.9392), place("P4", "Neljä", 60.1703, 24.9393)]
        })))
        .expect(2)
        .mount(&server)
        .await;
    let google = client(&server);
    let names = |hits: Vec<outreach_core::discovery::sources::Hit>| -> Vec<String> {
        hits.into_iter().map(|hit| hit.candidate.name).collect()
    };
    let first = google
        .search(&request(), "q", 3, &HashSet::new())
        .await
        .unwrap();
    assert_eq!(names(first), ["Yksi", "Kaksi", "Kolme"]);
    // A later chunk: what earlier chunks found is skipped; the last page has no token, so the search ends there.
    let exclude = HashSet::from(["google:P1".to_string(), "google:P3".to_string()]);
    let rest = google.search(&request(), "q", 10, &exclude).await.unwrap();
    assert_eq!(names(rest), ["Kaksi", "Neljä"]);
}

#[tokio::test]
async fn the_area_is_located_by_a_text_search_for_it() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(|request: &wiremock::Request| {
            request.headers.get("X-Goog-FieldMask").is_some_and(|mask| mask == "places.displayName,places.location")
                && body_of(request) == json!({ "textQuery": "Helsinki", "pageSize": 1 })
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "places": [
            { "displayName": { "text": "Helsinki" }, "location": { "latitude": 60.1699, "longitude": 24.9384 } }
        ]})))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({})))
        .mount(&server)
        .await;
    let google = client(&server);
    let centre = google.locate("Helsinki").await.unwrap().unwrap();
    assert_eq!(
        (centre.name.as_str(), centre.kind.as_str()),
        ("Helsinki", "google")
    );
    assert_eq!((centre.latitude, centre.longitude), HELSINKI);
    assert_eq!(google.locate("Atlantis under the sea").await.unwrap(), None);
    assert!(
        google
            .search(&request(), "q", 5, &HashSet::new())
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn errors_rate_limits_and_garbage_are_told_apart() {
    let denied = json!({ "error": { "code": 403, "message": "API key not valid. Please pass a valid API key.", "status": "PERMISSION_DENIED" } });
    let cases = [
        (
            ResponseTemplate::new(429)
                .set_body_json(json!({ "error": { "code": 429, "status": "RESOURCE_EXHAUSTED" } })),
            SourceError::RateLimited("Google Places"),
        ),
        (
            ResponseTemplate::new(403).set_body_json(denied),
            SourceError::Unavailable(
                "Google Places",
                "403 Forbidden (API key not valid. Please pass a valid API key.)".into(),
            ),
        ),
        (
            ResponseTemplate::new(503).set_body_string("busy"),
            SourceError::Unavailable("Google Places", "503 Service Unavailable".into()),
        ),
    ];
    for (answer, expected) in cases {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(answer)
            .mount(&server)
            .await;
        let error = client(&server)
            .search(&request(), "q", 5, &HashSet::new())
            .await
            .unwrap_err();
        assert_eq!(error, expected);
    }
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>oops</html>"))
        .mount(&server)
        .await;
    assert!(matches!(
        client(&server).locate("Helsinki").await,
        Err(SourceError::BadAnswer("Google Places", _))
    ));
}

#[test]
fn without_a_key_there_is_no_client() {
    assert!(GooglePlaces::new(&SearchSettings::default()).is_none());
}
