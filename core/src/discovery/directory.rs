//! The offline business directory: named points of interest and place names imported from an OpenStreetMap
//! extract (`outreach import osm FILE.osm.pbf`), offline geocoding of a search area, and radius searches by
//! great-circle distance. Data © OpenStreetMap contributors, ODbL 1.0.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;

use crate::on_db;
use crate::platform::db::BeginWrite;
use crate::platform::db::Db;
use crate::platform::queries::*;

pub const ATTRIBUTION: &str = "© OpenStreetMap contributors (ODbL)";
const EARTH_RADIUS_KM: f64 = 6371.0088;
pub const KM_PER_MILE: f64 = 1.609_344;

/// Tag keys that make a named OSM object a business, in the order that decides its category.
const BUSINESS_KEYS: &[&str] = &[
    "shop",
    "amenity",
    "office",
    "craft",
    "healthcare",
    "tourism",
    "leisure",
];
/// The keys a business's tags are searched for when only its name matches the business type.
pub const BUSINESS_KEYS_FOR_NAMES: &[&str] = &["shop", "amenity", "office", "craft"];
/// Values of those keys that are street furniture or landmarks rather than businesses.
const NOT_BUSINESSES: &[&str] = &[
    "bench",
    "waste_basket",
    "parking",
    "parking_entrance",
    "parking_space",
    "bicycle_parking",
    "toilets",
    "post_box",
    "vending_machine",
    "recycling",
    "telephone",
    "drinking_water",
    "fountain",
    "shelter",
    "clock",
    "grit_bin",
    "waste_disposal",
    "motorcycle_parking",
    "taxi",
    "bicycle_rental",
    "charging_station",
    "information",
    "artwork",
    "viewpoint",
    "picnic_site",
    "playground",
    "park",
    "garden",
    "pitch",
    "track",
    "common",
    "picnic_table",
    "bbq",
    "dog_park",
    "nature_reserve",
    "slipway",
    "swimming_area",
    "outdoor_seating",
    "yes",
];
const PLACE_KINDS: &[&str] = &[
    "city",
    "town",
    "village",
    "borough",
    "suburb",
    "quarter",
    "neighbourhood",
    "hamlet",
    "municipality",
];

/// Common business types and the OSM tags that mean them. A type not listed here still matches tags named after it
/// (`shoes` → `shop=shoes`) and names containing it.
pub const BUSINESS_TYPE_TAGS: &[(&str, &[&str])] = &[
    ("cafe", &["amenity=cafe"]),
    ("coffee shop", &["amenity=cafe", "shop=coffee"]),
    ("restaurant", &["amenity=restaurant"]),
    ("fast food", &["amenity=fast_food"]),
    ("bar", &["amenity=bar", "amenity=pub"]),
    ("pub", &["amenity=pub", "amenity=bar"]),
    ("bakery", &["shop=bakery", "shop=pastry"]),
    (
        "hotel",
        &["tourism=hotel", "tourism=hostel", "tourism=guest_house"],
    ),
    ("hair salon", &["shop=hairdresser"]),
    ("hairdresser", &["shop=hairdresser"]),
    ("barber", &["shop=hairdresser"]),
    ("beauty salon", &["shop=beauty", "shop=cosmetics"]),
    ("dentist", &["amenity=dentist", "healthcare=dentist"]),
    (
        "doctor",
        &["amenity=doctors", "healthcare=doctor", "amenity=clinic"],
    ),
    (
        "clinic",
        &["amenity=clinic", "healthcare=clinic", "amenity=doctors"],
    ),
    (
        "pharmacy",
        &["amenity=pharmacy", "healthcare=pharmacy", "shop=chemist"],
    ),
    ("gym", &["leisure=fitness_centre", "leisure=sports_centre"]),
    ("fitness", &["leisure=fitness_centre"]),
    ("lawyer", &["office=lawyer"]),
    ("law firm", &["office=lawyer"]),
    ("accountant", &["office=accountant", "office=tax_advisor"]),
    ("real estate", &["office=estate_agent"]),
    ("insurance", &["office=insurance"]),
    ("software", &["office=it", "office=company"]),
    ("it company", &["office=it"]),
    (
        "marketing agency",
        &["office=advertising_agency", "office=marketing"],
    ),
    (
        "clothing store",
        &["shop=clothes", "shop=boutique", "shop=fashion"],
    ),
    ("clothes", &["shop=clothes", "shop=boutique"]),
    ("shoe store", &["shop=shoes"]),
    ("florist", &["shop=florist"]),
    ("bookstore", &["shop=books"]),
    (
        "grocery",
        &["shop=supermarket", "shop=convenience", "shop=greengrocer"],
    ),
    ("supermarket", &["shop=supermarket"]),
    ("jewelry", &["shop=jewelry"]),
    ("optician", &["shop=optician", "healthcare=optometrist"]),
    ("car repair", &["shop=car_repair"]),
    ("mechanic", &["shop=car_repair"]),
    ("pet store", &["shop=pet"]),
    ("veterinarian", &["amenity=veterinary"]),
    ("bank", &["amenity=bank"]),
    ("museum", &["tourism=museum"]),
    ("gallery", &["tourism=gallery", "shop=art"]),
    ("ice cream", &["amenity=ice_cream"]),
    ("furniture", &["shop=furniture", "shop=interior_decoration"]),
    (
        "electronics",
        &["shop=electronics", "shop=computer", "shop=mobile_phone"],
    ),
    (
        "travel agency",
        &["shop=travel_agency", "office=travel_agent"],
    ),
];

#[derive(Debug, thiserror::Error)]
pub enum DirectoryError {
    #[error("cannot read the OpenStreetMap extract: {0}")]
    Read(String),
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
}

/// A point of interest of the directory.
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    pub id: i64,
    pub osm_type: String,
    pub osm_id: i64,
    pub name: String,
    pub category: String,
    pub street: Option<String>,
    pub house_number: Option<String>,
    pub postcode: Option<String>,
    pub city: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub website: Option<String>,
    pub latitude: f64,
    pub longitude: f64,
}

impl Place {
    /// "Street 1, 00100 City".
    pub fn address(&self) -> Option<String> {
        let street = [self.street.as_deref(), self.house_number.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let town = [self.postcode.as_deref(), self.city.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let parts: Vec<String> = [street, town]
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// A named business from an OSM object's tags (None for anything else). Not stored yet, so its id is 0.
    pub fn from_osm(
        osm_type: &str,
        osm_id: i64,
        tags: &HashMap<String, String>,
        latitude: f64,
        longitude: f64,
    ) -> Option<Place> {
        let category = business_category(tags)?;
        let tag = |keys: &[&str]| {
            keys.iter()
                .find_map(|key| tags.get(*key).map(|value| value.trim().to_string()))
                .filter(|value| !value.is_empty())
        };
        Some(Place {
            id: 0,
            osm_type: osm_type.to_string(),
            osm_id,
            name: tag(&["name"])?,
            category,
            street: tag(&["addr:street"]),
            house_number: tag(&["addr:housenumber"]),
            postcode: tag(&["addr:postcode"]),
            city: tag(&["addr:city"]),
            phone: tag(&["phone", "contact:phone"]),
            email: tag(&["email", "contact:email"]),
            website: tag(&["website", "contact:website", "url"]),
            latitude,
            longitude,
        })
    }

    /// The place's key among provider results: `osm:node/123`.
    pub fn provider_place_id(&self) -> String {
        format!("osm:{}/{}", self.osm_type, self.osm_id)
    }

    /// Where the place is on openstreetmap.org (its provenance).
    pub fn source_url(&self) -> String {
        format!(
            "https://www.openstreetmap.org/{}/{}",
            self.osm_type, self.osm_id
        )
    }
}

/// A named place (city, suburb...) for geocoding.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Locality {
    pub name: String,
    pub kind: String,
    pub latitude: f64,
    pub longitude: f64,
    pub population: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ImportReport {
    pub places: usize,
    pub localities: usize,
}

/// What one pass over the extract found.
#[derive(Debug, Default)]
struct Parsed {
    places: Vec<ParsedPlace>,
    localities: Vec<ParsedLocality>,
}

/// A business way, waiting for its nodes' positions.
struct PendingWay {
    id: i64,
    tags: HashMap<String, String>,
    refs: Vec<i64>,
}

#[derive(Debug)]
struct ParsedLocality {
    osm_id: i64,
    name: String,
    kind: String,
    position: (f64, f64),
    population: Option<i64>,
}

#[derive(Debug)]
struct ParsedPlace {
    osm_type: &'static str,
    osm_id: i64,
    tags: HashMap<String, String>,
    position: (f64, f64),
}

/// Reads the extract (two passes: businesses and place names, then the nodes of business ways for their centres)
/// and stores it. Importing again refreshes existing rows.
pub async fn import_osm(db: &Db, path: &Path, now: i64) -> Result<ImportReport, DirectoryError> {
    let file = path.to_path_buf();
    let parsed = tokio::task::spawn_blocking(move || parse(&file))
        .await
        .map_err(|error| DirectoryError::Read(error.to_string()))??;
    let report = ImportReport {
        places: parsed.places.len(),
        localities: parsed.localities.len(),
    };
    store(db, parsed, now).await?;
    Ok(report)
}

fn parse(path: &Path) -> Result<Parsed, DirectoryError> {
    use osmpbf::{Element, ElementReader};
    let read_error = |error: osmpbf::Error| DirectoryError::Read(error.to_string());
    let mut parsed = Parsed::default();
    // Business ways wait for their nodes' positions.
    let mut ways: Vec<PendingWay> = Vec::new();
    let mut wanted_nodes: HashSet<i64> = HashSet::new();

    let mut on_node = |id: i64, lat: f64, lon: f64, tags: HashMap<String, String>| {
        if business_category(&tags).is_some() {
            parsed.places.push(ParsedPlace {
                osm_type: "node",
                osm_id: id,
                tags,
                position: (lat, lon),
            });
        } else if let (Some(kind), Some(name)) = (tags.get("place"), tags.get("name"))
            && PLACE_KINDS.contains(&kind.as_str())
        {
            let population = tags
                .get("population")
                .and_then(|value| value.replace([' ', ','], "").parse().ok());
            parsed.localities.push(ParsedLocality {
                osm_id: id,
                name: name.clone(),
                kind: kind.clone(),
                position: (lat, lon),
                population,
            });
        }
    };
    ElementReader::from_path(path)
        .map_err(read_error)?
        .for_each(|element| match element {
            Element::Node(node) => {
                on_node(node.id(), node.lat(), node.lon(), owned_tags(node.tags()))
            }
            Element::DenseNode(node) => {
                on_node(node.id(), node.lat(), node.lon(), owned_tags(node.tags()))
            }
            Element::Way(way) => {
                let tags = owned_tags(way.tags());
                if business_category(&tags).is_some() {
                    let refs: Vec<i64> = way.refs().collect();
                    wanted_nodes.extend(refs.iter().copied());
                    ways.push(PendingWay {
                        id: way.id(),
                        tags,
                        refs,
                    });
                }
            }
            Element::Relation(_) => {}
        })
        .map_err(read_error)?;

    if !ways.is_empty() {
        let mut positions: HashMap<i64, (f64, f64)> = HashMap::with_capacity(wanted_nodes.len());
        ElementReader::from_path(path)
            .map_err(read_error)?
            .for_each(|element| match element {
                Element::Node(node) if wanted_nodes.contains(&node.id()) => {
                    positions.insert(node.id(), (node.lat(), node.lon()));
                }
                Element::DenseNode(node) if wanted_nodes.contains(&node.id()) => {
                    positions.insert(node.id(), (node.lat(), node.lon()));
                }
                _ => {}
            })
            .map_err(read_error)?;
        for PendingWay { id, tags, refs } in ways {
            let points: Vec<(f64, f64)> = refs
                .iter()
                .filter_map(|node| positions.get(node).copied())
                .collect();
            if points.is_empty() {
                continue;
            }
            let count = points.len() as f64;
            let centre = (
                points.iter().map(|p| p.0).sum::<f64>() / count,
                points.iter().map(|p| p.1).sum::<f64>() / count,
            );
            parsed.places.push(ParsedPlace {
                osm_type: "way",
                osm_id: id,
                tags,
                position: centre,
            });
        }
    }
    Ok(parsed)
}

fn owned_tags<'a>(tags: impl Iterator<Item = (&'a str, &'a str)>) -> HashMap<String, String> {
    tags.map(|(key, value)| (key.to_string(), value.to_string()))
        .collect()
}

/// `key=value` of the tag that makes a named object a business, if any.
fn business_category(tags: &HashMap<String, String>) -> Option<String> {
    if tags.get("name").is_none_or(|name| name.trim().is_empty()) {
        return None;
    }
    BUSINESS_KEYS.iter().find_map(|key| {
        let value = tags.get(*key)?;
        (!NOT_BUSINESSES.contains(&value.as_str())).then(|| format!("{key}={value}"))
    })
}

/// Lowercased, accents kept, spaces folded: the key geocoding compares.
pub fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

async fn store(db: &Db, parsed: Parsed, now: i64) -> Result<(), DirectoryError> {
    let (place_sql, locality_sql) = (
        DIRECTORY_UPSERT_PLACE.sql(db),
        DIRECTORY_UPSERT_LOCALITY.sql(db),
    );
    let places: Vec<Place> = parsed
        .places
        .iter()
        .filter_map(|parsed| {
            Place::from_osm(
                parsed.osm_type,
                parsed.osm_id,
                &parsed.tags,
                parsed.position.0,
                parsed.position.1,
            )
        })
        .collect();
    on_db!(db, pool => {
        // One transaction per thousand rows keeps memory and lock time small on big extracts.
        for chunk in places.chunks(1000) {
            let mut tx = pool.begin_write().await?;
            for place in chunk {
                sqlx::query(place_sql)
                    .bind(&place.osm_type)
                    .bind(place.osm_id)
                    .bind(&place.name)
                    .bind(&place.category)
                    .bind(&place.street)
                    .bind(&place.house_number)
                    .bind(&place.postcode)
                    .bind(&place.city)
                    .bind(&place.phone)
                    .bind(&place.email)
                    .bind(&place.website)
                    .bind(place.latitude)
                    .bind(place.longitude)
                    .bind(now)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await?;
        }
        let mut tx = pool.begin_write().await?;
        for locality in &parsed.localities {
            sqlx::query(locality_sql)
                .bind(locality.osm_id)
                .bind(&locality.name)
                .bind(name_key(&locality.name))
                .bind(&locality.kind)
                .bind(locality.position.0)
                .bind(locality.position.1)
                .bind(locality.population)
                .execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok::<(), sqlx::Error>(())
    })?;
    Ok(())
}

/// The OSM categories a business type means, per the mapping above plus tags named after it.
pub fn categories_for(business_type: &str) -> Vec<String> {
    let wanted = name_key(business_type);
    let mut categories: Vec<String> = BUSINESS_TYPE_TAGS
        .iter()
        .filter(|(name, _)| *name == wanted || wanted.trim_end_matches('s') == *name)
        .flat_map(|(_, tags)| tags.iter().map(|tag| tag.to_string()))
        .collect();
    let value = wanted.trim_end_matches('s').replace(' ', "_");
    for key in BUSINESS_KEYS {
        categories.push(format!("{key}={value}"));
        categories.push(format!("{key}={}", wanted.replace(' ', "_")));
    }
    categories.sort();
    categories.dedup();
    categories
}

/// Great-circle distance in kilometres.
pub fn distance_km(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (lat1, lat2) = (a.0.to_radians(), b.0.to_radians());
    let (dlat, dlon) = ((b.0 - a.0).to_radians(), (b.1 - a.1).to_radians());
    let h = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * h.sqrt().asin()
}

/// The places called `area` in the extract ("Helsinki", or "Kamppi, Helsinki": its first part), biggest first.
pub async fn geocode(db: &Db, area: &str) -> Result<Option<Locality>, sqlx::Error> {
    let sql = DIRECTORY_FIND_LOCALITY.sql(db);
    for candidate in [area, area.split(',').next().unwrap_or(area)] {
        let key = name_key(candidate);
        let found: Vec<Locality> =
            on_db!(db, pool => sqlx::query_as(sql).bind(&key).fetch_all(pool).await)?;
        if let Some(best) = found.into_iter().next() {
            return Ok(Some(best));
        }
    }
    Ok(None)
}

/// A place found within the radius, with its distance.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Found {
    pub place: Place,
    pub distance_km: f64,
}

/// Places of the business type within `radius_km` of `centre`, nearest first, at most `limit`, skipping `exclude`
/// (the `provider_place_id`s earlier chunks of the same search already found).
pub async fn search(
    db: &Db,
    centre: (f64, f64),
    radius_km: f64,
    business_type: &str,
    limit: usize,
    exclude: &HashSet<String>,
) -> Result<Vec<Found>, sqlx::Error> {
    let dlat = radius_km / 111.32;
    let dlon = radius_km / (111.32 * centre.0.to_radians().cos().max(0.01));
    let categories =
        serde_json::to_string(&categories_for(business_type)).expect("strings serialise");
    let term = name_key(business_type);
    let sql = DIRECTORY_WITHIN_BOX.sql(db);
    // The box holds more than the circle; fetch generously, then keep the circle.
    let candidates_limit = (limit + exclude.len()).saturating_mul(4).max(200) as i64;
    let rows: Vec<Place> = on_db!(db, pool => sqlx::query_as(sql)
        .bind(centre.0 - dlat)
        .bind(centre.0 + dlat)
        .bind(centre.1 - dlon)
        .bind(centre.1 + dlon)
        .bind(&categories)
        .bind(&term)
        .bind(candidates_limit)
        .fetch_all(pool).await)?;
    Ok(nearest(rows, centre, radius_km, limit, exclude))
}

/// Places within the radius that earlier chunks did not find, nearest first, at most `limit`.
pub fn nearest(
    places: Vec<Place>,
    centre: (f64, f64),
    radius_km: f64,
    limit: usize,
    exclude: &HashSet<String>,
) -> Vec<Found> {
    let mut found: Vec<Found> = places
        .into_iter()
        .filter(|place| !exclude.contains(&place.provider_place_id()))
        .map(|place| Found {
            distance_km: distance_km(centre, (place.latitude, place.longitude)),
            place,
        })
        .filter(|found| found.distance_km <= radius_km)
        .collect();
    found.sort_by(|a, b| {
        a.distance_km
            .total_cmp(&b.distance_km)
            .then(a.place.osm_id.cmp(&b.place.osm_id))
    });
    found.truncate(limit);
    found
}

/// (places, localities) in the directory.
pub async fn counts(db: &Db) -> Result<(i64, i64), sqlx::Error> {
    let sql = DIRECTORY_COUNTS.sql(db);
    on_db!(db, pool => sqlx::query_as(sql).fetch_one(pool).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn great_circle_distances() {
        let helsinki = (60.1699, 24.9384);
        let tallinn = (59.4370, 24.7536);
        assert!(
            (distance_km(helsinki, tallinn) - 82.0).abs() < 2.0,
            "{}",
            distance_km(helsinki, tallinn)
        );
        assert_eq!(distance_km(helsinki, helsinki), 0.0);
    }

    #[test]
    fn business_types_map_to_tags() {
        let cafes = categories_for("Cafe");
        assert!(cafes.contains(&"amenity=cafe".to_string()));
        let shoes = categories_for("shoes");
        assert!(shoes.contains(&"shop=shoes".to_string()), "{shoes:?}");
        assert!(categories_for("hair salon").contains(&"shop=hairdresser".to_string()));
        assert!(categories_for("restaurants").contains(&"amenity=restaurant".to_string()));
    }

    #[test]
    fn only_named_businesses_count() {
        let tags = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert_eq!(
            business_category(&tags(&[("name", "Ursula"), ("amenity", "cafe")])),
            Some("amenity=cafe".into())
        );
        assert_eq!(business_category(&tags(&[("amenity", "cafe")])), None);
        assert_eq!(
            business_category(&tags(&[("name", "Bench"), ("amenity", "bench")])),
            None
        );
        assert_eq!(
            business_category(&tags(&[
                ("name", "Stockmann"),
                ("shop", "department_store"),
                ("amenity", "cafe")
            ])),
            Some("shop=department_store".into())
        );
    }
}
