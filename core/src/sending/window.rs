//! Where each recipient is, and so when a campaign's window is open for them: a recipient's time zone comes from
//! where the business is (the nearest city of the bundled gazetteer), else from its city's name, else it is the
//! campaign's own zone (the sender's). The window itself is `platform::window`.

use std::collections::HashMap;

use chrono_tz::Tz;

use crate::discovery::gazetteer;
use crate::on_db;
use crate::platform::db::{StoreResult, json_list};
use crate::platform::queries::BUSINESS_PLACES;
use crate::platform::window::SendingWindow;
use crate::sending::SendingStore;

/// Where a recipient is, as far as known: latitude, longitude, city.
pub type Place<'a> = (Option<f64>, Option<f64>, Option<&'a str>);

/// A recipient's time zone: the nearest city to where the business is, else the city it names, else `fallback`.
pub fn recipient_zone(
    latitude: Option<f64>,
    longitude: Option<f64>,
    city: Option<&str>,
    fallback: Tz,
) -> Tz {
    latitude
        .zip(longitude)
        .and_then(|(latitude, longitude)| gazetteer::time_zone_near(latitude, longitude))
        .or_else(|| city.and_then(gazetteer::time_zone_of))
        .unwrap_or(fallback)
}

impl SendingStore<'_> {
    /// Each business's time zone among `ids` (see `recipient_zone`); `fallback` for one whose place is unknown.
    pub async fn recipient_zones(
        &self,
        ids: &[i64],
        fallback: Tz,
    ) -> StoreResult<HashMap<i64, Tz>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = BUSINESS_PLACES.sql(self);
        let list = json_list(ids);
        type Row = (i64, Option<f64>, Option<f64>, Option<String>);
        let rows: Vec<Row> =
            on_db!(self, pool => sqlx::query_as(sql).bind(&list).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(id, latitude, longitude, city)| {
                (
                    id,
                    recipient_zone(latitude, longitude, city.as_deref(), fallback),
                )
            })
            .collect())
    }
}

/// Of recipients at `places`, how many find the window closed at `at` (ms) in their own time, and when it first
/// opens for one of them.
pub fn held_at(window: &SendingWindow, at: i64, places: &[Place<'_>]) -> (usize, Option<i64>) {
    let opening: Vec<i64> = places
        .iter()
        .map(|(latitude, longitude, city)| {
            window.next_open(
                at,
                recipient_zone(*latitude, *longitude, *city, window.time_zone),
            )
        })
        .filter(|opens| *opens > at)
        .collect();
    (opening.len(), opening.iter().min().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recipients_zone_comes_from_where_the_business_is() {
        let helsinki = recipient_zone(Some(60.17), Some(24.94), Some("Austin"), Tz::UTC);
        assert_eq!(helsinki, Tz::Europe__Helsinki);
        assert_eq!(
            recipient_zone(None, None, Some("Austin, TX"), Tz::UTC),
            Tz::America__Chicago
        );
        assert_eq!(
            recipient_zone(None, None, Some("Nowhere-upon-Nothing"), Tz::Asia__Tokyo),
            Tz::Asia__Tokyo
        );
    }
}
