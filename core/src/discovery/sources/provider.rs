//! The provider picked for a search (`choose`: the configured ones in order, the offline directory last), its
//! search, and the attributions its data requires.

use serde_json::json;

use super::google::{self, GooglePlaces};
use super::osm::OsmOnline;
use super::web_search::{self, WebSearch};
use super::{Exclusions, Hit, Target};
use crate::discovery::businesses::Candidate;
use crate::discovery::directory::{self, Found, Locality};
use crate::discovery::gazetteer;
use crate::discovery::search::SearchParams;
use crate::platform::config::{SearchProvider, Settings};
use crate::platform::db::Db;
use crate::platform::invalid::Invalid;

/// A provider chosen for a search.
#[derive(Debug, Clone)]
pub enum Source {
    Osm(OsmOnline),
    Google(GooglePlaces),
    WebSearch(WebSearch),
    Directory,
}

impl Source {
    /// The provider's name in provenance and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Source::Osm(_) => "osm",
            Source::Google(_) => "google",
            Source::WebSearch(_) => "ai_web_search",
            Source::Directory => "directory",
        }
    }

    /// The attribution the provider's data requires.
    pub fn attribution(&self) -> &'static str {
        attribution_of(self.name()).unwrap_or_default()
    }

    /// Up to `limit` businesses of the target that `exclude` does not hold; `query` is recorded as provenance.
    pub async fn find(
        &self,
        db: &Db,
        target: &Target,
        query: &str,
        limit: usize,
        exclude: &Exclusions,
    ) -> anyhow::Result<Vec<Hit>> {
        if let Source::WebSearch(web) = self {
            return Ok(web.search(target, query, limit, exclude).await?);
        }
        let Target::Local {
            business_type,
            area,
            centre,
            radius_km,
        } = target
        else {
            anyhow::bail!("{} answers local searches only", self.name());
        };
        let Some(centre) = centre else {
            anyhow::bail!("{} needs the area's centre", self.name());
        };
        let point = (centre.latitude, centre.longitude);
        let found = match self {
            Source::Osm(osm) => {
                osm.search(point, *radius_km, business_type, limit, &exclude.ids)
                    .await?
            }
            Source::Directory => {
                directory::search(db, point, *radius_km, business_type, limit, &exclude.ids).await?
            }
            Source::Google(google) => {
                let request = google::Request {
                    business_type,
                    area,
                    centre: point,
                    radius_km: *radius_km,
                };
                return Ok(google.search(&request, query, limit, &exclude.ids).await?);
            }
            Source::WebSearch(_) => unreachable!("answered above"),
        };
        Ok(found
            .into_iter()
            .map(|found| place_hit(found, self.name(), query))
            .collect())
    }
}

/// The attribution a provider's data requires, by the provider's name in provenance (None for imports).
pub fn attribution_of(provider: &str) -> Option<&'static str> {
    match provider {
        "osm" | "directory" => Some(directory::ATTRIBUTION),
        "google" => Some(google::ATTRIBUTION),
        "ai_web_search" => Some(web_search::ATTRIBUTION),
        _ => None,
    }
}

/// The attributions results from these providers need, once each (the directory's when there are none).
pub fn attributions<'a>(providers: impl IntoIterator<Item = &'a str>) -> String {
    let mut all: Vec<&str> = Vec::new();
    for attribution in providers.into_iter().filter_map(attribution_of) {
        if !all.contains(&attribution) {
            all.push(attribution);
        }
    }
    if all.is_empty() {
        all.push(directory::ATTRIBUTION);
    }
    all.join(" · ")
}

/// An OpenStreetMap place (online or from the directory) as a hit.
fn place_hit(found: Found, provider: &str, query: &str) -> Hit {
    let place = &found.place;
    Hit {
        candidate: Candidate {
            name: place.name.clone(),
            address: place.address(),
            city: place.city.clone(),
            phone: place.phone.clone(),
            email: place.email.clone(),
            website: place.website.clone(),
            category: Some(place.category.clone()),
            rating: None,
            latitude: Some(place.latitude),
            longitude: Some(place.longitude),
            provider: provider.to_string(),
            provider_place_id: Some(place.provider_place_id()),
            query: query.to_string(),
            source_url: Some(place.source_url()),
        },
        raw: json!({ "place": found.place, "distanceKm": found.distance_km }),
    }
}

/// The area's centre without the network: a place in the directory's extract, else a gazetteer city.
async fn locate_offline(db: &Db, area: &str) -> Result<Option<Locality>, sqlx::Error> {
    Ok(match directory::geocode(db, area).await? {
        Some(found) => Some(found),
        None => gazetteer::lookup(area),
    })
}

/// The source for a search and what it looks for, or the reason no source can answer it (for the user).
pub async fn choose(
    db: &Db,
    settings: &Settings,
    params: &SearchParams,
) -> anyhow::Result<Result<(Source, Target), Invalid>> {
    if params.search_type != "local" {
        let Some(web) = WebSearch::from_settings(&settings.ai) else {
            return Ok(Err(
                "Online searches need the AI web search, which needs an OpenAI API key \
                (ai.provider = \"openai\"); it is not configured on this instance"
                    .into(),
            ));
        };
        let target = Target::Online {
            kind: params.online_business_type.clone().unwrap_or_default(),
            topics: params.topics.clone().unwrap_or_default(),
        };
        return Ok(Ok((Source::WebSearch(web), target)));
    }
    let business_type = params.business_type.clone().unwrap_or_default();
    let area = params.geographic_area.clone().unwrap_or_default();
    let radius_km = f64::from(params.radius.unwrap_or(25)) * directory::KM_PER_MILE;
    let local = |centre: Option<Locality>| Target::Local {
        business_type: business_type.clone(),
        area: area.clone(),
        centre,
        radius_km,
    };
    for provider in &settings.search.providers {
        let source = match provider {
            SearchProvider::Osm => {
                let osm = OsmOnline::new(&settings.search)?;
                match osm.geocode(&area).await {
                    Ok(Some(found)) => {
                        return Ok(Ok((Source::Osm(osm), local(Some(found)))));
                    }
                    Ok(None) => None,
                    Err(error) => {
                        tracing::warn!(%error, "Nominatim geocoding failed; using the offline gazetteer");
                        Some(Source::Osm(osm))
                    }
                }
            }
            SearchProvider::Google => match GooglePlaces::new(&settings.search) {
                Some(google) => match google.locate(&area).await {
                    Ok(Some(found)) => {
                        return Ok(Ok((Source::Google(google), local(Some(found)))));
                    }
                    Ok(None) => None,
                    Err(error) => {
                        tracing::warn!(%error, "Google Places could not place the area; using the offline gazetteer");
                        Some(Source::Google(google))
                    }
                },
                None => {
                    tracing::warn!("search provider google has no API key; skipped");
                    None
                }
            },
            SearchProvider::Ai => match WebSearch::from_settings(&settings.ai) {
                Some(web) => {
                    let centre = locate_offline(db, &area).await?;
                    return Ok(Ok((Source::WebSearch(web), local(centre))));
                }
                None => {
                    tracing::warn!("search provider ai needs ai.provider = \"openai\"; skipped");
                    None
                }
            },
            SearchProvider::Directory => None,
        };
        if let Some(source) = source
            && let Some(centre) = locate_offline(db, &area).await?
        {
            return Ok(Ok((source, local(Some(centre)))));
        }
    }
    Ok(match locate_offline(db, &area).await? {
        Some(centre) => Ok((Source::Directory, local(Some(centre)))),
        None => Err(Invalid(format!(
            "{area} was not found in the offline directory. Import an OpenStreetMap extract that covers it."
        ))),
    })
}
