//! Nominatim and Overpass clients against local fake servers (wiremock) with realistic answers, rate limits,
//! errors and empty results; each request is checked (path, parameters, User-Agent, the Overpass query).

use std::collections::HashSet;

use outreach_core::discovery::sources::SourceError;
use outreach_core::discovery::sources::osm::OsmOnline;
use outreach_core::platform::config::SearchSettings;
use serde_json::json;
use wiremock::matchers::{header_regex, method, path, query_param};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn client(server: &MockServer) -> OsmOnline {
    OsmOnline::new(&SearchSettings {
        nominatim_url: server.uri(),
        overpass_url: server.uri(),
        contact: "ops@outreach.example".into(),
        ..SearchSettings::default()
    })
    .unwrap()
}

#[tokio::test]
async fn nominatim_geocodes_with_a_descriptive_user_agent() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .and(query_param("q", "Helsinki"))
        .and(query_param("format", "jsonv2"))
        .and(query_param("limit", "1"))
        .and(header_regex("user-agent", r"^Outreach/.+ops@outreach\.example"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{
            "place_id": 34, "osm_type": "relation", "osm_id": 34914, "lat": "60.1674881", "lon": "24.9427473",
            "display_name": "Helsinki, Helsinki sub-region, Uusimaa, Mainland Finland, Finland", "type": "city"
        }])))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .and(query_param("q", "Atlantis"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&server)
        .await;
    let osm = client(&server);
    let area = osm.geocode("Helsinki").await.unwrap().unwrap();
    assert!((area.latitude - 60.1674881).abs() < 1e-9 && area.name.starts_with("Helsinki"));
    assert_eq!(osm.geocode("Atlantis").await.unwrap(), None);
}

#[tokio::test]
async fn overpass_finds_named_businesses_within_the_radius_nearest_first() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/interpreter"))
        .and(|request: &Request| {
            let form: Vec<(String, String)> = url::form_urlencoded::parse(&request.body).into_owned().collect();
            form.iter().any(|(key, query)| key == "data" && query.contains(r#"nwr["amenity"="cafe"]["name"](around:1609,60.167488,24.942747)"#) && query.ends_with("out center tags;"))
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "version": 0.6, "generator": "Overpass API",
            "elements": [
                { "type": "node", "id": 1, "lat": 60.1690, "lon": 24.9430, "tags": { "amenity": "cafe", "name": "Café Far", "website": "https://far.example", "addr:street": "Aleksanterinkatu", "addr:housenumber": "1" } },
                { "type": "way", "id": 2, "center": { "lat": 60.1676, "lon": 24.9428 }, "tags": { "amenity": "cafe", "name": "Café Near" } },
                { "type": "node", "id": 3, "lat": 60.1675, "lon": 24.9427, "tags": { "amenity": "cafe" } },
                { "type": "node", "id": 4, "lat": 60.3000, "lon": 24.9427, "tags": { "amenity": "cafe", "name": "Café Outside" } }
            ]
        })))
        .mount(&server)
        .await;
    let osm = client(&server);
    let found = osm
        .search(
            (60.1674881, 24.9427473),
            1.609_344,
            "cafe",
            10,
            &HashSet::new(),
        )
        .await
        .unwrap();
    let names: Vec<&str> = found.iter().map(|f| f.place.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["Café Near", "Café Far"],
        "unnamed and outside-the-radius places are dropped"
    );
    assert_eq!(
        (
            found[0].place.osm_type.as_str(),
            found[0].place.provider_place_id()
        ),
        ("way", "osm:way/2".to_string())
    );
    assert_eq!(
        found[1].place.address().as_deref(),
        Some("Aleksanterinkatu 1")
    );
    let exclude = HashSet::from(["osm:way/2".to_string()]);
    let rest = osm
        .search((60.1674881, 24.9427473), 1.609_344, "cafe", 10, &exclude)
        .await
        .unwrap();
    assert_eq!(rest.len(), 1);
}

#[tokio::test]
async fn rate_limits_outages_and_garbage_are_told_apart() {
    for (answer, expected) in [
        (
            ResponseTemplate::new(429),
            SourceError::RateLimited("OpenStreetMap"),
        ),
        (
            ResponseTemplate::new(504).set_body_string("Gateway Timeout"),
            SourceError::Unavailable("OpenStreetMap", "504 Gateway Timeout".into()),
        ),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/api/interpreter"))
            .respond_with(answer)
            .mount(&server)
            .await;
        assert_eq!(
            client(&server)
                .search((0.0, 0.0), 1.0, "cafe", 5, &HashSet::new())
                .await
                .unwrap_err(),
            expected
        );
    }
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/search"))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>busy</html>"))
        .mount(&server)
        .await;
    assert!(matches!(
        client(&server).geocode("Helsinki").await,
        Err(SourceError::BadAnswer("OpenStreetMap", _))
    ));
}
