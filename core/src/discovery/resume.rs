//! Searches and website lookups interrupted between their steps. Each search chunk queues the next under a key
//! of the search and chunk, so queueing it again is a no-op once it exists: a chunk run again after a crash, or the
//! scheduler's pass over running searches, queues the chunk a crash lost and never a second one. A business left
//! waiting for its lookup with no lookup job left is given one.

use crate::Context;
use crate::discovery::DiscoveryStore;
use crate::on_db;
use crate::platform::db::StoreResult;
use crate::platform::jobs::{EnrichBusiness, RunSearchChunk};
use crate::platform::queries::*;
use crate::platform::queue::QueueError;

/// Queues chunk `chunk_number` of a search, once: the key is the search's and the chunk's.
pub async fn queue_chunk(
    ctx: &Context,
    search_id: i64,
    chunk_number: i32,
) -> Result<bool, QueueError> {
    let job = RunSearchChunk {
        search_id,
        chunk_number,
    };
    let key = format!("search:{search_id}:chunk:{chunk_number}");
    ctx.queue.enqueue(job, Some(&key)).await
}

/// Queues the next chunk of every search running since before `before` whose next chunk was never queued;
/// returns how many were.
pub async fn resume_searches(ctx: &Context, before: i64) -> Result<usize, QueueError> {
    let mut resumed = 0;
    for (search_id, chunks_done) in ctx.db.discovery().running_searches(before).await? {
        resumed += usize::from(queue_chunk(ctx, search_id, chunks_done + 1).await?);
    }
    Ok(resumed)
}

/// Gives a lookup job to every business waiting for one that has none left (its request was written and the
/// process died before its job was); returns how many.
pub async fn resume_enrichment(ctx: &Context) -> Result<usize, QueueError> {
    let waiting = ctx.db.discovery().businesses_pending_enrichment().await?;
    ctx.queue
        .enqueue_missing(
            waiting,
            "business_id",
            "enrich",
            ctx.now_ms(),
            EnrichBusiness::of,
        )
        .await
}

impl DiscoveryStore<'_> {
    /// Searches running since before `before`: (id, chunks done).
    pub async fn running_searches(&self, before: i64) -> StoreResult<Vec<(i64, i32)>> {
        let sql = SEARCH_RUNNING.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(before).fetch_all(pool).await)
    }

    /// Businesses whose website lookup was asked for and has not answered.
    pub async fn businesses_pending_enrichment(&self) -> StoreResult<Vec<i64>> {
        let sql = BUSINESS_PENDING_ENRICHMENT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).fetch_all(pool).await)
    }
}
