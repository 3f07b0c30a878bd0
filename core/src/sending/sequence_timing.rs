//! When a due follow-up goes out (issue 19): inside the campaign's sending window in the recipient's local time, and
//! with AI-optimised timing (A §9, on by default) at the hour that recipient opened the message before, else at the
//! hour the campaign's prospects open mail most, else when the window opens in the morning.

use std::collections::HashMap;

use chrono_tz::Tz;

use crate::on_db;
use crate::platform::db::{Db, StoreResult};
use crate::platform::queries::FOLLOW_UP_CAMPAIGN_OPENS;
use crate::platform::window::{SendingWindow, local_hour};
use crate::sending::SendingStore;
use crate::sending::window::recipient_zone;

/// What timing one follow-up needs to know.
#[derive(Debug, Clone, Copy)]
pub struct Due<'a> {
    /// When it is due by its delay (ms).
    pub at: i64,
    /// When the recipient opened the message before, if they did.
    pub opened_at: Option<i64>,
    pub window: &'a SendingWindow,
    pub zone: Tz,
    pub ai_timing: bool,
}

/// The moment a follow-up goes out; `campaign_hour` is the hour the campaign's prospects open mail most, if known.
pub fn send_time(due: Due<'_>, campaign_hour: Option<u32>) -> i64 {
    if !due.ai_timing {
        return due.window.next_open(due.at, due.zone);
    }
    let own_hour = due.opened_at.and_then(|at| local_hour(at, due.zone));
    // A window open all day has no morning to wait for: without a known hour it goes when due.
    let morning = (!due.window.is_always()).then_some((due.window.start_minute / 60) as u32);
    match own_hour.or(campaign_hour).or(morning) {
        Some(hour) => due.window.next_at_hour(due.at, due.zone, hour),
        None => due.window.next_open(due.at, due.zone),
    }
}

/// The local hour most of `opens` fall in (the earliest of equals); none without opens.
pub fn busiest_hour(opens: impl IntoIterator<Item = (i64, Tz)>) -> Option<u32> {
    let mut counts = [0usize; 24];
    let mut any = false;
    for (at, zone) in opens {
        if let Some(hour) = local_hour(at, zone) {
            counts[hour as usize] += 1;
            any = true;
        }
    }
    any.then(|| {
        (0..24u32)
            .max_by_key(|hour| (counts[*hour as usize], std::cmp::Reverse(*hour)))
            .expect("24 hours")
    })
}

impl SendingStore<'_> {
    /// The hour a campaign's prospects open mail most, in each one's local time (its latest 500 opens).
    pub async fn campaign_open_hour(
        &self,
        campaign_id: i64,
        fallback: Tz,
    ) -> StoreResult<Option<u32>> {
        let sql = FOLLOW_UP_CAMPAIGN_OPENS.sql(self);
        type Row = (i64, Option<f64>, Option<f64>, Option<String>);
        let rows: Vec<Row> =
            on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)?;
        Ok(busiest_hour(rows.into_iter().map(
            |(at, latitude, longitude, city)| {
                (
                    at,
                    recipient_zone(latitude, longitude, city.as_deref(), fallback),
                )
            },
        )))
    }
}

/// Campaign open hours looked up once per run.
#[derive(Debug, Default)]
pub struct OpenHours(HashMap<i64, Option<u32>>);

impl OpenHours {
    pub async fn of(
        &mut self,
        db: &Db,
        campaign_id: i64,
        fallback: Tz,
    ) -> StoreResult<Option<u32>> {
        if let Some(hour) = self.0.get(&campaign_id) {
            return Ok(*hour);
        }
        let hour = db
            .sending()
            .campaign_open_hour(campaign_id, fallback)
            .await?;
        self.0.insert(campaign_id, hour);
        Ok(hour)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(text: &str) -> i64 {
        chrono::DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    }

    fn iso(ms: i64) -> String {
        crate::platform::clock::iso(ms)
    }

    #[test]
    fn ai_timing_picks_the_recipients_hour_then_the_campaigns_then_the_morning() {
        let window: SendingWindow = "mon-fri 08:00-18:00".parse().unwrap();
        let zone = Tz::America__New_York;
        // Due Tuesday 2026-11-24 10:00 in New York (15:00 UTC).
        let due = Due {
            at: ms("2026-11-24T15:00:00Z"),
            opened_at: Some(ms("2026-11-19T19:40:00Z")), // 14:40 local
            window: &window,
            zone,
            ai_timing: true,
        };
        assert_eq!(iso(send_time(due, Some(9))), "2026-11-24T19:00:00.000Z");
        let unopened = Due {
            opened_at: None,
            ..due
        };
        // The campaign's prospects open most at 09:00: tomorrow 09:00, as today's has passed.
        assert_eq!(
            iso(send_time(unopened, Some(9))),
            "2026-11-25T14:00:00.000Z"
        );
        // Nothing known: the window's start, 08:00 the next morning.
        assert_eq!(iso(send_time(unopened, None)), "2026-11-25T13:00:00.000Z");
        // Without AI timing it goes when due, inside the window.
        let plain = Due {
            ai_timing: false,
            ..due
        };
        assert_eq!(send_time(plain, Some(9)), due.at);
        // A window open all day with nothing known: when due.
        let always = SendingWindow::always();
        assert_eq!(
            send_time(
                Due {
                    window: &always,
                    ..unopened
                },
                None
            ),
            due.at
        );
    }

    #[test]
    fn the_busiest_hour_counts_each_open_in_its_own_zone() {
        let opens = [
            (ms("2026-11-24T07:10:00Z"), Tz::Europe__Helsinki), // 09 local
            (ms("2026-11-24T14:30:00Z"), Tz::America__New_York), // 09 local
            (ms("2026-11-24T12:00:00Z"), Tz::UTC),              // 12
        ];
        assert_eq!(busiest_hour(opens), Some(9));
        assert_eq!(busiest_hour([]), None);
    }
}
