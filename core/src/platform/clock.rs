//! Time comes from a `Clock`, never from the database's `now()`, so tests can move it.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

pub const SECOND_MS: i64 = 1_000;
pub const DAY_MS: i64 = 86_400 * SECOND_MS;

pub trait Clock: Send + Sync + std::fmt::Debug {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

#[derive(Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis()
    }
}

/// A clock that tests set and advance.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn at(ms: i64) -> Arc<Self> {
        Arc::new(Self(AtomicI64::new(ms)))
    }
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

pub type SharedClock = Arc<dyn Clock>;

/// The UTC date of a moment.
pub fn date_of(ms: i64) -> chrono::NaiveDate {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .date_naive()
}

/// ISO 8601 text (UTC, milliseconds) of a moment.
pub fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A moment typed by an operator: a date (`2026-11-01`, its start in UTC) or an RFC 3339 time.
pub fn parse_moment(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(date) = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Some(date.and_hms_opt(0, 0, 0)?.and_utc().timestamp_millis());
    }
    chrono::DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|moment| moment.timestamp_millis())
}

/// A moment in an answer: milliseconds since the epoch in the database and in code, ISO 8601 text in JSON (and
/// `string`, `date-time` in the OpenAPI description), so every time on the wire reads the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type)]
#[sqlx(transparent)]
pub struct Timestamp(pub i64);

impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&iso(self.0))
    }
}

impl utoipa::PartialSchema for Timestamp {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .into()
    }
}

impl utoipa::ToSchema for Timestamp {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_are_dates_or_rfc3339_times() {
        assert_eq!(parse_moment("2026-11-01"), Some(1_793_491_200_000));
        assert_eq!(
            parse_moment("2026-11-01T01:00:00+01:00"),
            Some(1_793_491_200_000)
        );
        assert_eq!(
            iso(parse_moment(" 2026-11-01 ").unwrap()),
            "2026-11-01T00:00:00.000Z"
        );
        for bad in ["yesterday", "2026-13-01", ""] {
            assert_eq!(parse_moment(bad), None, "{bad}");
        }
    }
}
