//! Searches (A §5 Business search; B §3 Search log): the request and its parameters, the stored search with its
//! progress, its log rows, and what a chunk added.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::platform::clock::Timestamp;
use crate::{on_db, on_tx};

use crate::discovery::DiscoveryStore;
use crate::platform::db::{StoreResult, Tx};
use crate::platform::invalid::Invalid;
use crate::platform::queries::*;
use crate::platform::text::filled;

/// Results per `RunSearchChunk` job.
pub const CHUNK_SIZE: i32 = 25;
pub const ONLINE_TYPES: &[&str] = &[
    "bloggers",
    "youtubers",
    "podcasters",
    "influencers",
    "other",
];

/// A business search request (A §7 body) after the rules of A §5.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchParams {
    pub search_type: String,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    /// Miles.
    pub radius: Option<i32>,
    pub max_results: i32,
    pub online_business_type: Option<String>,
    pub topics: Option<String>,
    pub campaign_id: Option<i64>,
}

/// The request as it arrives; every field optional so the rules can name what is missing.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchRequest {
    pub search_type: Option<String>,
    pub business_type: Option<String>,
    pub geographic_area: Option<String>,
    pub radius: Option<i32>,
    pub max_results: Option<i32>,
    pub online_business_type: Option<String>,
    /// Topics of an online search: text, or a list of texts.
    #[schema(value_type = Option<Object>)]
    pub topics: Option<Value>,
    pub campaign_id: Option<i64>,
}

impl SearchRequest {
    /// A §5, first failure first.
    pub fn validate(self) -> Result<SearchParams, Invalid> {
        let text = filled;
        let search_type = text(&self.search_type).ok_or("Search type is required")?;
        let max_results = self.max_results.unwrap_or(50);
        if !(1..=200).contains(&max_results) {
            return Err("Max results must be between 1 and 200".into());
        }
        let topics = match &self.topics {
            Some(Value::String(text)) => Some(text.trim().to_string()),
            Some(Value::Array(items)) => Some(
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            _ => None,
        }
        .filter(|topics| !topics.is_empty());
        match search_type.as_str() {
            "local" => {
                let business_type = text(&self.business_type).ok_or("Business type is required")?;
                let area = text(&self.geographic_area).ok_or("Geographic area is required")?;
                let radius = self.radius.ok_or("Search radius is required")?;
                if !(1..=100).contains(&radius) {
                    return Err("Search radius must be between 1 and 100 miles".into());
                }
                Ok(SearchParams {
                    search_type,
                    business_type: Some(business_type),
                    geographic_area: Some(area),
                    radius: Some(radius),
                    max_results,
                    online_business_type: None,
                    topics: None,
                    campaign_id: self.campaign_id,
                })
            }
            "online" => {
                let kind =
                    text(&self.online_business_type).ok_or("Online business type is required")?;
                if !ONLINE_TYPES.contains(&kind.as_str()) {
                    return Err(Invalid(format!(
                        "Online business type must be one of {}",
                        ONLINE_TYPES.join(", ")
                    )));
                }
                let topics = topics.ok_or("Topics are required")?;
                Ok(SearchParams {
                    search_type,
                    business_type: None,
                    geographic_area: None,
                    radius: None,
                    max_results,
                    online_business_type: Some(kind),
                    topics: Some(topics),
                    campaign_id: self.campaign_id,
                })
            }
            _ => Err("Search type is required".into()),
        }
    }
}

impl SearchParams {
    /// What the search log calls this search, e.g. `cafe in Helsinki`.
    pub fn term(&self) -> String {
        match self.search_type.as_str() {
            "local" => format!(
                "{} in {}",
                self.business_type.as_deref().unwrap_or_default(),
                self.geographic_area.as_deref().unwrap_or_default()
            ),
            _ => format!(
                "{} about {}",
                self.online_business_type.as_deref().unwrap_or_default(),
                self.topics.as_deref().unwrap_or_default()
            ),
        }
    }

    pub fn chunks(&self) -> i32 {
        (self.max_results + CHUNK_SIZE - 1) / CHUNK_SIZE
    }
}

crate::text_enum! {
    /// A search runs chunk by chunk until it is complete, or stops: cancelled by a newer search of the campaign, or
    /// failed with the reason.
    pub enum SearchStatus ("search status") {
        Running = "running",
        Complete = "complete",
        Cancelled = "cancelled",
        Failed = "failed",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SearchRow {
    pub id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub search_type: String,
    pub search_term: String,
    pub params: String,
    pub status: SearchStatus,
    pub chunks_total: i32,
    pub chunks_done: i32,
    pub businesses_found: i32,
    pub error: Option<String>,
}

/// A business as a chunk's log keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct LoggedBusiness {
    pub name: Option<String>,
    pub email: Option<String>,
}

/// A chunk's log row (B §3 Search log).
#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchLog {
    pub id: i64,
    /// The search the chunk belongs to: separate searches of one term (the builder's, an automation's daily run and
    /// its Run Now) are told apart by it.
    pub search_id: i64,
    pub search_term: String,
    pub search_type: String,
    pub created_at: Timestamp,
    pub chunk_number: i32,
    pub max_results: i32,
    pub businesses_found: i32,
    pub excluded_items: String,
    /// The businesses the chunk added (stored as JSON text).
    #[serde(serialize_with = "json_text")]
    #[schema(value_type = Option<Vec<LoggedBusiness>>)]
    pub business_data: String,
    pub query: String,
    pub raw_response: String,
}

fn json_text<S: serde::Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serde_json::from_str::<Value>(text)
        .unwrap_or(Value::Null)
        .serialize(serializer)
}

/// A chunk's log, as the job writes it.
#[derive(Debug, Clone)]
pub struct NewSearchLog<'a> {
    pub search: &'a SearchRow,
    pub chunk_number: i32,
    pub max_results: i32,
    pub excluded_items: String,
    pub query: String,
    pub raw_response: String,
}

/// What a recorded search chunk added.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordedChunk {
    /// Businesses new to the search, and the search's count after the chunk.
    pub added: usize,
    pub found: i32,
    /// New businesses with a website and no address, for enrichment.
    pub to_enrich: Vec<i64>,
}

impl DiscoveryStore<'_> {
    pub async fn insert_search(
        &self,
        user_id: i64,
        params: &SearchParams,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = SEARCH_INSERT.sql(self);
        let json = serde_json::to_string(params).expect("params serialise");
        on_db!(self, pool => sqlx::query_scalar(sql)
            .bind(user_id).bind(params.campaign_id).bind(&params.search_type).bind(params.term()).bind(json)
            .bind(params.chunks()).bind(now)
            .fetch_one(pool).await)
    }

    pub async fn find_search(&self, id: i64, user_id: i64) -> StoreResult<Option<SearchRow>> {
        let sql = SEARCH_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    pub async fn load_search(&self, id: i64) -> StoreResult<Option<SearchRow>> {
        let sql = SEARCH_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// Ends a running search as `cancelled` or `failed`.
    pub async fn stop_search(
        &self,
        id: i64,
        status: SearchStatus,
        error: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = SEARCH_STOP.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(status).bind(error).bind(now).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    pub async fn search_logs(&self, user_id: i64, limit: i64) -> StoreResult<Vec<SearchLog>> {
        let sql = SEARCH_LOGS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }
}

/// Reopens a search whose chunks failed or are missing: it runs again from the chunk after the last one done. False
/// for a cancelled or complete search.
pub async fn reopen(tx: &mut Tx, id: i64) -> StoreResult<bool> {
    let sql = tx.sql(&SEARCH_REOPEN);
    let done: Option<i32> =
        on_tx!(tx, conn => sqlx::query_scalar(sql).bind(id).fetch_optional(conn).await)?;
    Ok(done.is_some())
}
