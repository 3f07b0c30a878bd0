//! OpenStreetMap online: Nominatim geocodes the search area, Overpass finds the points of interest of the business
//! type within the radius. Keyless; at most one request per second per process, with a descriptive User-Agent, as
//! both services' usage policies ask. Data © OpenStreetMap contributors, ODbL.

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serde::Deserialize;

use super::{SourceError, read_json};
use crate::discovery::directory::{
    BUSINESS_KEYS_FOR_NAMES, Found, Locality, Place, categories_for, name_key, nearest,
};
use crate::platform::config::SearchSettings;

/// How errors and logs name this provider.
const NAME: &str = "OpenStreetMap";

/// One request per second for the whole process, whichever job asks (the services' usage policies).
static LIMITER: OnceLock<Arc<DefaultDirectRateLimiter>> = OnceLock::new();

#[derive(Debug, Clone)]
pub struct OsmOnline {
    http: reqwest::Client,
    nominatim: String,
    overpass: String,
    limiter: Arc<DefaultDirectRateLimiter>,
}

#[derive(Debug, Deserialize)]
struct NominatimPlace {
    lat: String,
    lon: String,
    display_name: String,
}

#[derive(Debug, Deserialize)]
struct OverpassAnswer {
    elements: Vec<OverpassElement>,
}

#[derive(Debug, Deserialize)]
struct OverpassElement {
    #[serde(rename = "type")]
    kind: String,
    id: i64,
    lat: Option<f64>,
    lon: Option<f64>,
    center: Option<Centre>,
    #[serde(default)]
    tags: HashMap<String, String>,
}

#[derive(Debug, Deserialize)]
struct Centre {
    lat: f64,
    lon: f64,
}

impl OsmOnline {
    pub fn new(settings: &SearchSettings) -> Result<Self, SourceError> {
        let contact = if settings.contact.is_empty() {
            String::new()
        } else {
            format!("; {}", settings.contact)
        };
        let http = reqwest::Client::builder()
            .user_agent(format!(
                "Outreach/{} (self-hosted business search{contact})",
                env!("CARGO_PKG_VERSION")
            ))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|error| SourceError::Unavailable(NAME, error.to_string()))?;
        Ok(Self {
            http,
            nominatim: settings.nominatim_url.trim_end_matches('/').to_string(),
            overpass: settings.overpass_url.trim_end_matches('/').to_string(),
            limiter: LIMITER
                .get_or_init(|| {
                    Arc::new(RateLimiter::direct(Quota::per_second(
                        NonZeroU32::new(1).expect("one"),
                    )))
                })
                .clone(),
        })
    }

    /// The area's position, or None when Nominatim does not know it.
    pub async fn geocode(&self, area: &str) -> Result<Option<Locality>, SourceError> {
        self.limiter.until_ready().await;
        let response = self
            .http
            .get(format!("{}/search", self.nominatim))
            .query(&[("q", area), ("format", "jsonv2"), ("limit", "1")])
            .send()
            .await
            .map_err(|error| SourceError::Unavailable(NAME, error.to_string()))?;
        let places: Vec<NominatimPlace> = read_json(NAME, response).await?;
        let Some(place) = places.into_iter().next() else {
            return Ok(None);
        };
        let parse = |text: &str| {
            text.parse::<f64>()
                .map_err(|_| SourceError::BadAnswer(NAME, format!("coordinate {text}")))
        };
        Ok(Some(Locality {
            name: place.display_name,
            kind: "nominatim".to_string(),
            latitude: parse(&place.lat)?,
            longitude: parse(&place.lon)?,
            population: None,
        }))
    }

    /// The Overpass QL query for the business type around a point.
    pub fn query(business_type: &str, centre: (f64, f64), radius_km: f64) -> String {
        let around = format!(
            "(around:{:.0},{:.6},{:.6})",
            radius_km * 1000.0,
            centre.0,
            centre.1
        );
        let mut parts = String::new();
        for category in categories_for(business_type) {
            if let Some((key, value)) = category.split_once('=') {
                let (key, value) = (escape(key), escape(value));
                parts.push_str(&format!("nwr[\"{key}\"=\"{value}\"][\"name\"]{around};"));
            }
        }
        // Names containing the type catch businesses whose tags the mapping does not know.
        let term = escape(&regex_literal(&name_key(business_type)));
        if !term.is_empty() {
            parts.push_str(&format!(
                "nwr[\"name\"~\"{term}\",i][~\"^({})$\"~\".\"]{around};",
                BUSINESS_KEYS_FOR_NAMES.join("|")
            ));
        }
        format!("[out:json][timeout:25];({parts});out center tags;")
    }

    /// Businesses of the type within the radius, nearest first, skipping `exclude`.
    pub async fn search(
        &self,
        centre: (f64, f64),
        radius_km: f64,
        business_type: &str,
        limit: usize,
        exclude: &HashSet<String>,
    ) -> Result<Vec<Found>, SourceError> {
        self.limiter.until_ready().await;
        let response = self
            .http
            .post(format!("{}/api/interpreter", self.overpass))
            .form(&[("data", Self::query(business_type, centre, radius_km))])
            .send()
            .await
            .map_err(|error| SourceError::Unavailable(NAME, error.to_string()))?;
        let answer: OverpassAnswer = read_json(NAME, response).await?;
        let places: Vec<Place> = answer
            .elements
            .iter()
            .filter_map(|element| {
                let (lat, lon) = match (&element.center, element.lat, element.lon) {
                    (Some(centre), _, _) => (centre.lat, centre.lon),
                    (None, Some(lat), Some(lon)) => (lat, lon),
                    _ => return None,
                };
                Place::from_osm(&element.kind, element.id, &element.tags, lat, lon)
            })
            .collect();
        Ok(nearest(places, centre, radius_km, limit, exclude))
    }
}

/// Quotes and backslashes escaped for an Overpass string.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Regex special characters escaped, so a business type matches literally.
fn regex_literal(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if ".*+?()[]{}|^$\\".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_ask_for_mapped_tags_and_names_around_the_point() {
        let query = OsmOnline::query("Cafe", (60.17, 24.94), 1.609_344);
        assert!(query.starts_with("[out:json][timeout:25];("));
        assert!(
            query.contains(r#"nwr["amenity"="cafe"]["name"](around:1609,60.170000,24.940000);"#),
            "{query}"
        );
        assert!(
            query.contains(
                r#"nwr["name"~"cafe",i][~"^(shop|amenity|office|craft)$"~"."](around:1609,"#
            ),
            "{query}"
        );
        assert!(query.ends_with("out center tags;"));
        assert!(OsmOnline::query(r#"bad" ] type"#, (0.0, 0.0), 1.0).contains(r#"bad\" \\] type"#));
    }
}
