//! Google Places API (New) Text Search: "<business type> in <area>" with a location-bias circle around the area's
//! centre, 20 places a page and at most three pages (Google's own cap of 60), keeping the places within the radius
//! that earlier chunks did not find. The key goes in `X-Goog-Api-Key`; the field mask asks only for what a business
//! row holds.

use std::collections::HashSet;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use super::{Hit, SourceError, read_json};
use crate::discovery::businesses::Candidate;
use crate::discovery::directory::{Locality, distance_km};
use crate::platform::config::{SearchSettings, Secret};

pub const DEFAULT_BASE_URL: &str = "https://places.googleapis.com";
pub const ATTRIBUTION: &str = "Google Maps";
const NAME: &str = "Google Places";
const PAGE_SIZE: usize = 20;
const MAX_PAGES: usize = 3;
/// The largest location-bias circle the API takes.
const MAX_BIAS_METRES: f64 = 50_000.0;
const FIELD_MASK: &str = "places.id,places.displayName,places.formattedAddress,places.addressComponents,\
places.nationalPhoneNumber,places.internationalPhoneNumber,places.websiteUri,places.rating,places.location,\
places.primaryTypeDisplayName,places.googleMapsUri,nextPageToken";

#[derive(Debug, Clone)]
pub struct GooglePlaces {
    http: reqwest::Client,
    base_url: String,
    api_key: Secret,
}

/// A local search as Google is asked it.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a> {
    pub business_type: &'a str,
    pub area: &'a str,
    pub centre: (f64, f64),
    pub radius_km: f64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page {
    #[serde(default)]
    places: Vec<Value>,
    next_page_token: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct PlaceFields {
    id: String,
    display_name: Option<LocalizedText>,
    formatted_address: Option<String>,
    address_components: Vec<AddressComponent>,
    national_phone_number: Option<String>,
    international_phone_number: Option<String>,
    website_uri: Option<String>,
    rating: Option<f64>,
    location: Option<LatLng>,
    primary_type_display_name: Option<LocalizedText>,
    google_maps_uri: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct LocalizedText {
    text: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AddressComponent {
    long_text: String,
    #[serde(default)]
    types: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
struct LatLng {
    latitude: f64,
    longitude: f64,
}

impl GooglePlaces {
    /// The client, or None when no API key is configured.
    pub fn new(settings: &SearchSettings) -> Option<Self> {
        if settings.google_places_api_key.is_empty() {
            return None;
        }
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .ok()?;
        Some(Self {
            http,
            base_url: settings.google_places_url.trim_end_matches('/').to_string(),
            api_key: settings.google_places_api_key.clone(),
        })
    }

    /// The area's centre: the first place a text search for the area itself finds.
    pub async fn locate(&self, area: &str) -> Result<Option<Locality>, SourceError> {
        let page = self
            .page(
                json!({ "textQuery": area, "pageSize": 1 }),
                "places.displayName,places.location",
            )
            .await?;
        Ok(page.places.into_iter().find_map(|raw| {
            let place: PlaceFields = serde_json::from_value(raw).ok()?;
            let location = place.location?;
            Some(Locality {
                name: place
                    .display_name
                    .map_or_else(|| area.to_string(), |name| name.text),
                kind: "google".to_string(),
                latitude: location.latitude,
                longitude: location.longitude,
                population: None,
            })
        }))
    }

    /// Up to `limit` places within the radius whose ids `exclude` does not hold, in Google's order.
    pub async fn search(
        &self,
        request: &Request<'_>,
        query: &str,
        limit: usize,
        exclude: &HashSet<String>,
    ) -> Result<Vec<Hit>, SourceError> {
        let mut body = json!({
            "textQuery": format!("{} in {}", request.business_type, request.area),
            "pageSize": PAGE_SIZE,
            "locationBias": { "circle": {
                "center": { "latitude": request.centre.0, "longitude": request.centre.1 },
                "radius": (request.radius_km * 1000.0).min(MAX_BIAS_METRES),
            }},
        });
        let mut hits = Vec::new();
        let mut seen = exclude.clone();
        for _ in 0..MAX_PAGES {
            let page = self.page(body.clone(), FIELD_MASK).await?;
            for raw in page.places {
                let Ok(place) = serde_json::from_value::<PlaceFields>(raw.clone()) else {
                    continue;
                };
                let id = format!("google:{}", place.id);
                if place.id.is_empty() || !seen.insert(id.clone()) {
                    continue;
                }
                let distance = place.location.as_ref().map(|location| {
                    distance_km(request.centre, (location.latitude, location.longitude))
                });
                if distance.is_some_and(|distance| distance > request.radius_km) {
                    continue;
                }
                if let Some(candidate) = candidate(place, id, query) {
                    hits.push(Hit { candidate, raw });
                }
                if hits.len() >= limit {
                    return Ok(hits);
                }
            }
            // Every page repeats the first request's parameters, plus the token.
            match page.next_page_token {
                Some(token) if !token.is_empty() => body["pageToken"] = json!(token),
                _ => break,
            }
        }
        Ok(hits)
    }

    async fn page(&self, body: Value, field_mask: &str) -> Result<Page, SourceError> {
        let response = self
            .http
            .post(format!("{}/v1/places:searchText", self.base_url))
            .header("X-Goog-Api-Key", self.api_key.expose())
            .header("X-Goog-FieldMask", field_mask)
            .json(&body)
            .send()
            .await
            .map_err(|error| SourceError::Unavailable(NAME, error.to_string()))?;
        read_json(NAME, response).await
    }
}

/// A Google place as a business (None without a name).
fn candidate(place: PlaceFields, id: String, query: &str) -> Option<Candidate> {
    let name = place.display_name?.text.trim().to_string();
    if name.is_empty() {
        return None;
    }
    let city = place
        .address_components
        .iter()
        .find(|component| component.types.iter().any(|kind| kind == "locality"))
        .map(|component| component.long_text.clone());
    Some(Candidate {
        name,
        address: place.formatted_address,
        city,
        phone: place
            .international_phone_number
            .or(place.national_phone_number),
        email: None,
        website: place.website_uri,
        category: place.primary_type_display_name.map(|kind| kind.text),
        rating: place.rating,
        latitude: place.location.as_ref().map(|location| location.latitude),
        longitude: place.location.as_ref().map(|location| location.longitude),
        provider: "google".to_string(),
        provider_place_id: Some(id),
        query: query.to_string(),
        source_url: place.google_maps_uri,
    })
}
