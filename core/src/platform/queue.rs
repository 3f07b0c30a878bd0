//! The job queue on apalis's PostgreSQL or SQLite storage (picked by the database URL), and the operator's view of
//! it: list, show, retry, and the backoff a failing handler sets before it gives the job back.

use std::collections::HashSet;
use std::time::Duration;

use apalis::prelude::{TaskBuilder, TaskSink};
use serde::Serialize;

use crate::platform::clock::{SECOND_MS, iso};
use crate::platform::config::QueueSettings;
use crate::platform::db::{Db, StoreResult, Tx};
use crate::platform::jobs::Job;
use crate::platform::queries::*;
use crate::{on_db, on_tx, on_writer};

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("could not enqueue a {kind} job: {message}")]
    Push { kind: &'static str, message: String },
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
}

/// Enqueues jobs; cheap to clone.
#[derive(Clone, Debug)]
pub struct Queue {
    db: Db,
    settings: QueueSettings,
}

/// A queue row as operators see it. Times are unix seconds as apalis stores them.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobRow {
    pub id: String,
    pub job_type: String,
    pub status: JobStatus,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: Option<i64>,
    pub done_at: Option<i64>,
    pub last_result: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobDetail {
    #[serde(flatten)]
    pub row: JobRow,
    pub payload: Option<String>,
    pub lock_by: Option<String>,
}

impl JobRow {
    /// One line for `outreach jobs list`.
    pub fn summary(&self) -> String {
        let when = self.run_at.map(|s| iso(s * SECOND_MS)).unwrap_or_default();
        let error = self
            .last_result
            .as_deref()
            .filter(|_| self.status == JobStatus::Failed)
            .unwrap_or("");
        format!(
            "{}  {:<22} {:<8} {}/{}  {}  {}",
            self.id, self.job_type, self.status, self.attempts, self.max_attempts, when, error
        )
    }
}

crate::text_enum! {
    /// A job's state as apalis writes it.
    pub enum JobStatus ("job status") {
        Pending = "Pending",
        Queued = "Queued",
        Running = "Running",
        Done = "Done",
        Failed = "Failed",
        Killed = "Killed",
    }
}

/// A status named on the command line or in the console's filter, in any case.
pub fn parse_status(text: &str) -> Option<JobStatus> {
    JobStatus::ALL
        .iter()
        .copied()
        .find(|status| status.as_str().eq_ignore_ascii_case(text))
}

impl Queue {
    pub fn new(db: Db, settings: QueueSettings) -> Self {
        Self { db, settings }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    pub fn settings(&self) -> &QueueSettings {
        &self.settings
    }

    /// The apalis PostgreSQL storage config of one job kind.
    pub fn postgres_config(&self, kind: &str) -> apalis_postgres::Config {
        apalis_postgres::Config::default()
            .queue(kind)
            .batch_size(self.settings.batch_size.max(1))
            .heartbeat_interval(Duration::from_secs(self.settings.heartbeat_seconds.max(1)))
            .missed_heartbeats(3)
    }

    /// The apalis SQLite storage config of one job kind.
    pub fn sqlite_config(&self, kind: &str) -> apalis_sqlite::Config {
        apalis_sqlite::Config::default()
            .queue(kind)
            .batch_size(self.settings.batch_size.max(1))
            .heartbeat_interval(Duration::from_secs(self.settings.heartbeat_seconds.max(1)))
            .missed_heartbeats(3)
    }

    /// Enqueues a job. With an idempotency key, a second job with the same kind and key is not added
    /// (returns `false`): the scheduler keys ticks this way so two schedulers never double-fire.
    pub async fn enqueue<J: Job>(
        &self,
        job: J,
        idempotency_key: Option<&str>,
    ) -> Result<bool, QueueError> {
        self.enqueue_at(job, idempotency_key, None).await
    }

    /// Like [`Queue::enqueue`], not to run before `run_at_ms` (epoch milliseconds) when given.
    pub async fn enqueue_at<J: Job>(
        &self,
        job: J,
        idempotency_key: Option<&str>,
        run_at_ms: Option<i64>,
    ) -> Result<bool, QueueError> {
        let mut builder = TaskBuilder::new(job).max_attempts(self.settings.max_attempts.max(1));
        if let Some(at) = run_at_ms {
            builder = builder.run_at_timestamp((at / SECOND_MS).max(0) as u64);
        }
        if let Some(key) = idempotency_key {
            // SQLite skips a duplicate key silently, so look first; the unique index still settles any race.
            let sql = JOB_KEY_EXISTS.sql(&self.db);
            let existing: i64 = on_db!(&self.db, pool => sqlx::query_scalar(sql).bind(J::KIND).bind(key).fetch_one(pool).await)?;
            if existing > 0 {
                return Ok(false);
            }
            builder = builder.idempotency_key(key);
        }
        let task = builder.build();
        let pushed = match &self.db {
            Db::Postgres(pool) => {
                let mut storage = apalis_postgres::PostgresStorage::<J>::new(pool)
                    .with_config(self.postgres_config(J::KIND));
                storage
                    .push_task(task)
                    .await
                    .map_err(|error| error.to_string())
            }
            Db::Sqlite { writer: pool, .. } => {
                let mut storage = apalis_sqlite::SqliteStorage::<J>::new(pool)
                    .with_config(self.sqlite_config(J::KIND));
                storage
                    .push_task(task)
                    .await
                    .map_err(|error| error.to_string())
            }
        };
        match pushed {
            Ok(()) => {
                metrics::counter!("outreach_jobs_enqueued_total", "job" => J::KIND).increment(1);
                Ok(true)
            }
            // PostgreSQL reports the idempotency key's unique index; SQLite skips the row silently.
            Err(message) if message.contains("idx_jobs_idempotency_key") => Ok(false),
            Err(message) => Err(QueueError::Push {
                kind: J::KIND,
                message,
            }),
        }
    }

    /// Enqueues many jobs of one kind, each with its idempotency key, in one insert (a job whose key is taken is
    /// left out); returns how many were added. When another process adds one of the keys in between, each job is
    /// enqueued on its own instead.
    pub async fn enqueue_all<J: Job + Clone>(
        &self,
        jobs: Vec<(J, String)>,
    ) -> Result<usize, QueueError> {
        if jobs.is_empty() {
            return Ok(0);
        }
        let keys: Vec<&str> = jobs.iter().map(|(_, key)| key.as_str()).collect();
        let sql = JOB_KEYS_EXISTING.sql(&self.db);
        let list = crate::platform::db::json_list(&keys);
        let taken: Vec<String> = on_db!(&self.db, pool => sqlx::query_scalar(sql).bind(J::KIND).bind(&list)
            .fetch_all(pool).await)?;
        let fresh: Vec<(J, String)> = jobs
            .into_iter()
            .filter(|(_, key)| !taken.contains(key))
            .collect();
        let tasks: Vec<_> = fresh
            .iter()
            .map(|(job, key)| {
                TaskBuilder::new(job.clone())
                    .max_attempts(self.settings.max_attempts.max(1))
                    .idempotency_key(key)
                    .build()
            })
            .collect();
        let count = tasks.len();
        let stream = futures::stream::iter(tasks);
        let pushed = match &self.db {
            Db::Postgres(pool) => apalis_postgres::PostgresStorage::<J>::new(pool)
                .with_config(self.postgres_config(J::KIND))
                .push_all(stream)
                .await
                .map_err(|error| error.to_string()),
            Db::Sqlite { writer: pool, .. } => apalis_sqlite::SqliteStorage::<J>::new(pool)
                .with_config(self.sqlite_config(J::KIND))
                .push_all(stream)
                .await
                .map_err(|error| error.to_string()),
        };
        match pushed {
            Ok(()) => {
                metrics::counter!("outreach_jobs_enqueued_total", "job" => J::KIND)
                    .increment(count as u64);
                Ok(count)
            }
            Err(message) if message.contains("idx_jobs_idempotency_key") => {
                let mut added = 0;
                for (job, key) in fresh {
                    added += usize::from(self.enqueue(job, Some(&key)).await?);
                }
                Ok(added)
            }
            Err(message) => Err(QueueError::Push {
                kind: J::KIND,
                message,
            }),
        }
    }

    /// The ids payload field `field` names (a number or a list of them) in this kind's jobs that are not done: a
    /// chain's resumption asks whether the next step's job exists before queueing it again.
    pub async fn unfinished_ids<J: Job>(&self, field: &str) -> Result<HashSet<i64>, QueueError> {
        let sql = JOB_UNFINISHED_IDS.sql(&self.db);
        let ids: Vec<i64> = on_db!(&self.db, pool => sqlx::query_scalar(sql).bind(J::KIND).bind(field)
            .fetch_all(pool).await)?;
        Ok(ids.into_iter().collect())
    }

    /// Whether the job of this kind queued with this idempotency key has finished (done, or failed for good).
    pub async fn finished<J: Job>(&self, key: &str) -> Result<bool, QueueError> {
        let sql = JOB_KEY_FINISHED.sql(&self.db);
        let finished: i64 = on_db!(&self.db, pool => sqlx::query_scalar(sql).bind(J::KIND).bind(key)
            .fetch_one(pool).await)?;
        Ok(finished > 0)
    }

    /// A campaign's next sending job that waits for a later time than `now_ms`: when it runs (epoch milliseconds)
    /// and its idempotency key.
    pub async fn next_send_of_campaign(
        &self,
        campaign_id: i64,
        now_ms: i64,
    ) -> Result<Option<(i64, Option<String>)>, QueueError> {
        let sql = JOB_NEXT_SEND.sql(&self.db);
        let next: Option<(i64, Option<String>)> = on_db!(&self.db, pool => sqlx::query_as(sql).bind(campaign_id)
            .bind(now_ms / SECOND_MS).fetch_optional(pool).await)?;
        Ok(next.map(|(seconds, key)| (seconds * SECOND_MS, key)))
    }

    /// Queues `job(id)` for each of `ids` that no job of this kind not done names in `field` (a chain a crash cut
    /// before its next job), keyed `{key}:{id}:resumed:{now_ms}`; returns how many were queued.
    pub async fn enqueue_missing<J: Job>(
        &self,
        ids: Vec<i64>,
        field: &str,
        key: &str,
        now_ms: i64,
        job: impl Fn(i64) -> J,
    ) -> Result<usize, QueueError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let queued = self.unfinished_ids::<J>(field).await?;
        let mut added = 0;
        for id in ids.into_iter().filter(|id| !queued.contains(id)) {
            let key = format!("{key}:{id}:resumed:{now_ms}");
            added += usize::from(self.enqueue(job(id), Some(&key)).await?);
        }
        Ok(added)
    }

    pub async fn list(
        &self,
        status: Option<JobStatus>,
        kind: Option<&str>,
        limit: i64,
    ) -> Result<Vec<JobRow>, QueueError> {
        let sql = JOB_LIST.sql(&self.db);
        Ok(
            on_db!(&self.db, pool => sqlx::query_as(sql).bind(status).bind(kind).bind(limit).fetch_all(pool).await)?,
        )
    }

    /// One job; a payload that is not UTF-8 is shown with its bad bytes replaced, never refused.
    pub async fn show(&self, id: &str) -> Result<Option<JobDetail>, QueueError> {
        let sql = JOB_SHOW.sql(&self.db);
        let row: Option<(JobRow, Option<Vec<u8>>, Option<String>)> = on_db!(&self.db, pool =>
            sqlx::query(sql).bind(id).fetch_optional(pool).await.and_then(|row| row.map(|row| {
                use sqlx::{FromRow, Row};
                Ok((JobRow::from_row(&row)?, row.try_get("payload")?, row.try_get("lock_by")?))
            }).transpose()))?;
        Ok(row.map(|(row, payload, lock_by)| JobDetail {
            row,
            payload: payload.map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            lock_by,
        }))
    }

    /// Puts failed (or killed) jobs back as pending with a fresh attempt count: one by id, or all of a kind.
    /// Returns the ids re-enqueued.
    pub async fn retry(
        &self,
        id: Option<&str>,
        kind: Option<&str>,
        now_ms: i64,
    ) -> Result<Vec<String>, QueueError> {
        let mut tx = self.db.begin_write().await?;
        let ids = retry_jobs(&mut tx, id, kind, now_ms).await?;
        tx.commit().await?;
        Ok(ids)
    }

    /// Keeps a failing job out of the fetch until `run_at_ms`; apalis then marks it failed and refetches it later.
    pub async fn defer(&self, id: &str, run_at_ms: i64) -> Result<(), QueueError> {
        let sql = JOB_DEFER.sql(&self.db);
        let run_at = run_at_ms / SECOND_MS;
        on_db!(&self.db, pool => sqlx::query(sql).bind(id).bind(run_at).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Jobs there is work on at `now_ms` (real time, as the queue keeps it): waiting, running or due for a retry,
    /// but not those scheduled for later.
    pub async fn due(&self, now_ms: i64) -> Result<i64, QueueError> {
        let sql = JOB_DUE.sql(&self.db);
        let now = now_ms / SECOND_MS;
        Ok(on_db!(&self.db, pool => sqlx::query_scalar(sql).bind(now).fetch_one(pool).await)?)
    }

    /// Per kind: jobs waiting, running or due for a retry, and the run time (unix seconds) of the oldest one due
    /// at `now_ms` that has not started.
    pub async fn depth(&self, now_ms: i64) -> Result<Vec<QueueDepth>, QueueError> {
        let sql = JOB_DEPTH.sql(&self.db);
        let now = now_ms / SECOND_MS;
        Ok(on_db!(&self.db, pool => sqlx::query_as(sql).bind(now).fetch_all(pool).await)?)
    }
}

impl Queue {
    /// After a queue worker of `kind` stopped on a row it could not read: each row it had fetched that `readable`
    /// refuses, and each waiting row of the kind whose id is not a ULID, fails for good with why (it would stop every
    /// worker that fetched it), and the others go back to the queue at once. Returns how many rows were set aside.
    pub async fn set_aside_unreadable(
        &self,
        (worker, kind): (&str, &str),
        readable: impl Fn(&[u8]) -> Result<(), serde_json::Error>,
        now_ms: i64,
    ) -> Result<usize, QueueError> {
        let (held, bad_ids, set_aside, release) = (
            JOB_HELD_BY.sql(&self.db),
            JOB_BAD_IDS.sql(&self.db),
            JOB_SET_ASIDE.sql(&self.db),
            JOB_RELEASE.sql(&self.db),
        );
        let mut rows: Vec<(String, Vec<u8>)> = on_db!(&self.db, pool => sqlx::query_as(held).bind(worker)
            .fetch_all(pool).await)?;
        // apalis reads a row's id before it takes the row: one with a bad id is still waiting, held by no one.
        let waiting: Vec<(String, Vec<u8>)> = on_db!(&self.db, pool => sqlx::query_as(bad_ids).bind(kind)
            .fetch_all(pool).await)?;
        rows.extend(waiting);
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows.dedup_by(|a, b| a.0 == b.0);
        let mut unreadable = 0;
        for (id, payload) in rows {
            let problem = match ulid_like(&id) {
                true => readable(&payload).err().map(|error| error.to_string()),
                false => Some(format!("the job id {id:?} is not one the queue writes")),
            };
            match problem {
                Some(reason) => {
                    let reason = format!("The job cannot be read, so it was set aside: {reason}");
                    on_writer!(&self.db, pool => sqlx::query(set_aside).bind(&id).bind(&reason)
                        .bind(now_ms / SECOND_MS).execute(pool).await.map(drop))?;
                    unreadable += 1;
                }
                None => {
                    on_writer!(&self.db, pool => sqlx::query(release).bind(&id).bind(worker)
                        .execute(pool).await.map(drop))?;
                }
            }
        }
        Ok(unreadable)
    }
}

/// [`Queue::retry`] in a change of several writes.
pub async fn retry_jobs(
    tx: &mut Tx,
    id: Option<&str>,
    kind: Option<&str>,
    now_ms: i64,
) -> StoreResult<Vec<String>> {
    let sql = tx.sql(&JOB_RETRY);
    let now = now_ms / SECOND_MS;
    on_tx!(tx, conn => sqlx::query_scalar(sql).bind(id).bind(kind).bind(now).fetch_all(conn).await)
}

/// Cancels a job that has not started: it is never run. False when it is not waiting.
pub async fn cancel_job(tx: &mut Tx, id: &str) -> StoreResult<bool> {
    let sql = tx.sql(&JOB_CANCEL);
    on_tx!(tx, conn => sqlx::query(sql).bind(id).execute(conn).await.map(|done| done.rows_affected() > 0))
}

/// Whether `id` has the shape of the ULIDs apalis gives jobs (26 Crockford base-32 characters).
fn ulid_like(id: &str) -> bool {
    id.len() == 26
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b.is_ascii_uppercase() && !b"ILOU".contains(&b)))
}

/// One kind's line of `Queue::depth`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct QueueDepth {
    pub job_type: String,
    pub waiting: i64,
    pub oldest_due: Option<i64>,
}

/// Exponential backoff of the retry after `attempt` failures (1-based), capped at a day.
pub fn retry_delay_ms(settings: &QueueSettings, attempt: usize) -> i64 {
    let base = settings.retry_base_seconds as i64 * SECOND_MS;
    let factor = 1i64 << attempt.saturating_sub(1).min(16);
    (base * factor).min(86_400 * SECOND_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let settings = QueueSettings {
            retry_base_seconds: 30,
            ..QueueSettings::default()
        };
        assert_eq!(retry_delay_ms(&settings, 1), 30_000);
        assert_eq!(retry_delay_ms(&settings, 2), 60_000);
        assert_eq!(retry_delay_ms(&settings, 3), 120_000);
        assert_eq!(retry_delay_ms(&settings, 40), 86_400_000);
    }

    #[test]
    fn statuses_parse_case_insensitively() {
        assert_eq!(parse_status("failed"), Some(JobStatus::Failed));
        assert_eq!(parse_status("DONE"), Some(JobStatus::Done));
        assert_eq!(parse_status("broken"), None);
    }
}
