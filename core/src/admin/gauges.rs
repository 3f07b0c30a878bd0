//! The operators' gauges read from the tables on a timer (issue 22): users out of their monthly quota and each
//! provider's sending headroom for the day. They read across accounts and sending, so they sit with the operators'
//! other views; the metric names are `platform::telemetry`'s.

use metrics::gauge;

use crate::accounts::QUOTA_WINDOW_DAYS;
use crate::admin::audit::AdminStore;
use crate::on_db;
use crate::platform::clock::DAY_MS;
use crate::platform::db::StoreResult;
use crate::platform::queries::{TELEMETRY_QUOTA_EXHAUSTED, TELEMETRY_SENDER_HEADROOM};
use crate::platform::telemetry::{PROVIDERS, SENDER_HEADROOM, USERS_OUT_OF_QUOTA};

impl AdminStore<'_> {
    /// Publishes the quota gauges: active users out of monthly quota, and each provider's daily headroom.
    pub async fn report_quota_headroom(&self, now: i64) -> StoreResult<()> {
        let today = now.div_euclid(DAY_MS);
        let exhausted = TELEMETRY_QUOTA_EXHAUSTED.sql(self);
        let users: i64 = on_db!(self, pool => sqlx::query_scalar(exhausted).bind(today - QUOTA_WINDOW_DAYS).fetch_one(pool).await)?;
        gauge!(USERS_OUT_OF_QUOTA).set(users as f64);
        let headroom = TELEMETRY_SENDER_HEADROOM.sql(self);
        let rows: Vec<(String, i64)> =
            on_db!(self, pool => sqlx::query_as(headroom).bind(today).fetch_all(pool).await)?;
        for provider in PROVIDERS {
            let left = rows
                .iter()
                .find(|(name, _)| name == provider)
                .map_or(0, |(_, left)| *left);
            gauge!(SENDER_HEADROOM, "provider" => *provider).set(left as f64);
        }
        Ok(())
    }
}
