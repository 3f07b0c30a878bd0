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

/// ISO 8601 text for JSON answers.
pub fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// `#[serde(serialize_with = "as_iso")]` for a time field of a JSON answer.
pub fn as_iso<S: serde::Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&iso(*ms))
}

/// `as_iso` for an optional time.
pub fn as_iso_opt<S: serde::Serializer>(
    ms: &Option<i64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => serializer.serialize_str(&iso(*ms)),
        None => serializer.serialize_none(),
    }
}
