//! Where a search's businesses come from (A §5, DESIGN §5): OpenStreetMap online (`osm`), Google Places (`google`)
//! and AI web search (`ai`), tried in the order `search.providers` lists them, with the offline directory last for
//! local searches. Online searches (creators on topics) need the AI web search. Every source answers one chunk:
//! businesses the earlier chunks of the same search did not find.

pub mod google;
pub mod osm;
pub mod provider;
pub mod web_search;

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::discovery::businesses::{Candidate, website_domain};
use crate::discovery::directory::{self, Locality};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("{0} rate limit reached; try again shortly")]
    RateLimited(&'static str),
    #[error("{0} is unavailable: {1}")]
    Unavailable(&'static str, String),
    #[error("{0} sent an answer that could not be read: {1}")]
    BadAnswer(&'static str, String),
}

/// A provider's JSON answer, or the error its status means (429 is a rate limit; any other failure names the
/// status and the provider's own message when it sent one).
pub(crate) async fn read_json<T: serde::de::DeserializeOwned>(
    provider: &'static str,
    response: reqwest::Response,
) -> Result<T, SourceError> {
    let status = response.status();
    if status.as_u16() == 429 {
        return Err(SourceError::RateLimited(provider));
    }
    if !status.is_success() {
        let body: Value = response.json().await.unwrap_or(Value::Null);
        let detail = body["error"]["message"]
            .as_str()
            .map(|message| format!(" ({message})"))
            .unwrap_or_default();
        return Err(SourceError::Unavailable(
            provider,
            format!("{status}{detail}"),
        ));
    }
    response
        .json()
        .await
        .map_err(|error| SourceError::BadAnswer(provider, error.to_string()))
}

/// What a search looks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// Businesses of a type within `radius_km` of the area's centre (the web search also works from the area's
    /// name alone; every other source is chosen only once the centre is known).
    Local {
        business_type: String,
        area: String,
        centre: Option<Locality>,
        radius_km: f64,
    },
    /// Creators of a kind (bloggers, youtubers...) on topics.
    Online { kind: String, topics: String },
}

impl Target {
    /// How the search log describes the target.
    pub fn describe(&self) -> Value {
        match self {
            Target::Local {
                business_type,
                area,
                centre,
                radius_km,
            } => json!({
                "businessType": business_type,
                "area": area,
                "centre": centre.as_ref().map(|centre| json!({
                    "name": centre.name, "source": centre.kind,
                    "latitude": centre.latitude, "longitude": centre.longitude,
                })),
                "radiusKm": radius_km,
            }),
            Target::Online { kind, topics } => {
                json!({ "onlineBusinessType": kind, "topics": topics })
            }
        }
    }
}

/// What earlier chunks found: provider ids (skipped by every source) and names (told to the web search).
#[derive(Debug, Clone, Default)]
pub struct Exclusions {
    pub ids: HashSet<String>,
    pub names: Vec<String>,
}

/// One business a source found, ready for de-duplication, with what the provider said about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub candidate: Candidate,
    pub raw: Value,
}

/// A web result's key among provider results: its website's domain, else its name.
pub fn web_result_id(name: &str, website: Option<&str>) -> String {
    match website.and_then(website_domain) {
        Some(domain) => format!("web:{domain}"),
        None => format!("web:{}", directory::name_key(name)),
    }
}
