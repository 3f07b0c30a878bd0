//! Generation requests as stored: the request, and once the job ran its result or error; and the user's own
//! results by objective and tone, which the writer's advice reads.

use serde::{Deserialize, Serialize};

use crate::campaigns::rates::RateSource;
use crate::on_db;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::writing::WritingStore;

/// A finished generation's result as stored and answered: the draft, the rates it may expect and who wrote it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Generated {
    pub subject: String,
    /// Safe HTML.
    pub body: String,
    /// Percent, one decimal.
    pub estimated_open_rate: f64,
    pub estimated_reply_rate: f64,
    pub rates_source: RateSource,
    /// The sends the user's own rates rest on.
    pub rates_sends: i64,
    /// `offline`, or the configured model's name.
    pub writer: String,
    /// What the writer could not do as asked (an adjustment it did not apply), for the composer to say.
    pub notes: Vec<String>,
}

crate::text_enum! {
    /// Where a generation request is: waiting for its job, done with a draft, or failed with the provider's error.
    pub enum GenerationStatus ("generation status") {
        Pending = "pending",
        Done = "done",
        Failed = "failed",
    }
}

/// A generation request as stored: the request and, once the job ran, its result or error (JSON text).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GenerationRow {
    pub id: i64,
    pub user_id: i64,
    pub status: GenerationStatus,
    pub request: String,
    pub result: Option<String>,
    pub error: Option<String>,
}

impl WritingStore<'_> {
    pub async fn insert_generation(
        &self,
        user_id: i64,
        request: &str,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = GENERATION_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(request).bind(now).fetch_one(pool).await)
    }

    pub async fn find_generation(
        &self,
        id: i64,
        user_id: i64,
    ) -> StoreResult<Option<GenerationRow>> {
        let sql = GENERATION_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The job's read of its request (no owner check: the job carries the id the API created).
    pub async fn load_generation(&self, id: i64) -> StoreResult<Option<GenerationRow>> {
        let sql = GENERATION_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// Records a generation's outcome once; a retried job does not overwrite a finished one.
    pub async fn finish_generation(
        &self,
        id: i64,
        status: GenerationStatus,
        result: Option<&str>,
        error: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = GENERATION_FINISH.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(status).bind(result).bind(error).bind(now)
            .execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    /// (sends, opened, replied) of a user's emails from templates with this objective and tone.
    pub async fn own_results(
        &self,
        user_id: i64,
        objective: &str,
        tone: &str,
    ) -> StoreResult<(i64, i64, i64)> {
        let sql = RATES_OWN_RESULTS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(objective).bind(tone).fetch_one(pool).await)
    }
}
