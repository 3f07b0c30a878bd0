//! The database: `Db` over PostgreSQL or SQLite, picked by the URL scheme, with migrations (ours and apalis's).

use std::ffi::{c_int, c_void};
use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::pool::CloseEvent;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, PgPool, SqlitePool};

use crate::platform::queries::{self, Query};

static PG_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");

/// Begins a write transaction on a pool. On SQLite it is `BEGIN IMMEDIATE`: the write lock is taken at the start
/// (waiting for it as any write does), so a transaction that reads before it writes never fails when it comes to
/// write because another connection wrote since its read (SQLITE_BUSY_SNAPSHOT, an "internal error" to the user:
/// saving a follow-up sequence while a worker was sending failed so). On PostgreSQL a plain `BEGIN`.
pub trait BeginWrite {
    type Database: sqlx::Database;
    fn begin_write(
        &self,
    ) -> impl Future<Output = Result<sqlx::Transaction<'static, Self::Database>, sqlx::Error>> + Send;
}

impl BeginWrite for PgPool {
    type Database = sqlx::Postgres;
    fn begin_write(
        &self,
    ) -> impl Future<Output = Result<sqlx::Transaction<'static, Self::Database>, sqlx::Error>> + Send
    {
        self.begin()
    }
}

impl BeginWrite for SqlitePool {
    type Database = sqlx::Sqlite;
    fn begin_write(
        &self,
    ) -> impl Future<Output = Result<sqlx::Transaction<'static, Self::Database>, sqlx::Error>> + Send
    {
        self.begin_with("BEGIN IMMEDIATE")
    }
}

/// One of the two supported backends. Each method runs the same SQL file through a concrete driver.
#[derive(Clone, Debug)]
pub enum Db {
    Postgres(PgPool),
    /// SQLite writes one transaction at a time. The busiest writers (sending's claims and sent marks, tracking
    /// events, new jobs) take turns on one `writer` connection, in order and without polling the file lock, and
    /// that connection's page cache stays valid between its writes. Everything else runs on `readers`: reads
    /// never wait for a writer (WAL), and their other writes wait for the lock in `wait_for_write_lock`.
    /// Sending's hand-overs live in a database file of their own beside the main one (`HAND_OVER_FILE`), reached
    /// only through `hand_overs`, one connection that sees the main file as `app`: each hand-over is committed
    /// while its SMTP connection waits to send, so it must not queue behind the claims and sent marks on `writer`
    /// (docs/benchmarks.md, Sending). No other connection attaches that file: SQLite's `BEGIN IMMEDIATE` would
    /// take the write lock of every file attached.
    Sqlite {
        readers: SqlitePool,
        writer: SqlitePool,
        hand_overs: SqlitePool,
    },
}

/// What `on_db!` and `on_writer!` run on: the database, or a capability's store over it.
pub trait AsDb {
    fn as_db(&self) -> &Db;
}

impl AsDb for Db {
    fn as_db(&self) -> &Db {
        self
    }
}

impl<T: AsDb + ?Sized> AsDb for &T {
    fn as_db(&self) -> &Db {
        (**self).as_db()
    }
}

/// A capability's store: its reads and writes over the database, reached as `db.<capability>()` (as in
/// `ctx.db.sending().claim(...)`) so that every call says whose data it touches. Declared once in each capability's
/// `mod.rs`; the platform's own methods (connections, transactions, migrations) stay on `Db`.
#[macro_export]
macro_rules! capability_store {
    ($(#[$doc:meta])* $store:ident, $accessor:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $store<'a>(&'a $crate::platform::db::Db);

        impl std::ops::Deref for $store<'_> {
            type Target = $crate::platform::db::Db;
            fn deref(&self) -> &Self::Target {
                self.0
            }
        }

        impl $crate::platform::db::AsDb for $store<'_> {
            fn as_db(&self) -> &$crate::platform::db::Db {
                self.0
            }
        }

        impl $crate::platform::db::Db {
            pub fn $accessor(&self) -> $store<'_> {
                $store(self)
            }
        }
    };
}

/// Expands `$body` once per backend with `$pool` bound to the concrete pool, so both arms are type-checked.
#[macro_export]
macro_rules! on_db {
    ($db:expr, $pool:ident => $body:expr) => {
        match $crate::platform::db::AsDb::as_db(&$db) {
            $crate::platform::db::Db::Postgres($pool) => $body,
            $crate::platform::db::Db::Sqlite { readers: $pool, .. } => $body,
        }
    };
}

/// `on_db!` for the busiest writes: on SQLite they go through the one writer connection (see `Db`).
#[macro_export]
macro_rules! on_writer {
    ($db:expr, $pool:ident => $body:expr) => {
        match $crate::platform::db::AsDb::as_db(&$db) {
            $crate::platform::db::Db::Postgres($pool) => $body,
            $crate::platform::db::Db::Sqlite { writer: $pool, .. } => $body,
        }
    };
}

/// `on_db!` for sending's hand-overs: on SQLite they are written in their own file, through its one connection
/// (see `Db`).
#[macro_export]
macro_rules! on_hand_overs {
    ($db:expr, $pool:ident => $body:expr) => {
        match $crate::platform::db::AsDb::as_db(&$db) {
            $crate::platform::db::Db::Postgres($pool) => $body,
            $crate::platform::db::Db::Sqlite {
                hand_overs: $pool, ..
            } => $body,
        }
    };
}

/// Expands `$body` once per backend with `$conn` bound to the transaction's connection (see `Tx`).
#[macro_export]
macro_rules! on_tx {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            $crate::platform::db::Tx::Postgres(transaction) => {
                let $conn = &mut **transaction;
                $body
            }
            $crate::platform::db::Tx::Sqlite(transaction) => {
                let $conn = &mut **transaction;
                $body
            }
        }
    };
}

/// A write transaction of either backend, for one change made of several capabilities' writes (an administrator's
/// action with its audit entry): each capability's write takes it, so the statements stay with their owner. On
/// SQLite it runs on the writer connection.
pub enum Tx {
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
}

impl Tx {
    /// The statement's text for the transaction's backend.
    pub fn sql(&self, query: &Query) -> &'static str {
        match self {
            Tx::Postgres(_) => query.postgres,
            Tx::Sqlite(_) => query.sqlite,
        }
    }

    pub async fn commit(self) -> StoreResult<()> {
        match self {
            Tx::Postgres(transaction) => transaction.commit().await,
            Tx::Sqlite(transaction) => transaction.commit().await,
        }
    }

    pub async fn rollback(self) -> StoreResult<()> {
        match self {
            Tx::Postgres(transaction) => transaction.rollback().await,
            Tx::Sqlite(transaction) => transaction.rollback().await,
        }
    }
}

/// What every read and write of the application returns.
pub type StoreError = sqlx::Error;
pub type StoreResult<T> = Result<T, StoreError>;

impl Query {
    /// The statement's text for `db`'s backend.
    pub fn sql(&self, db: &Db) -> &'static str {
        match db {
            Db::Postgres(_) => self.postgres,
            Db::Sqlite { .. } => self.sqlite,
        }
    }

    /// A listing's text with its `{order}` filled in: `order` must come from a fixed list of columns (the caller's
    /// whitelist), never from a request as it is.
    pub fn ordered(&self, db: &Db, order: &str) -> sqlx::AssertSqlSafe<String> {
        sqlx::AssertSqlSafe(self.sql(db).replace("{order}", order))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("unsupported database URL (use sqlite://PATH or postgres://...): {0}")]
    UnsupportedUrl(String),
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {0}: {1}")]
    Folder(String, std::io::Error),
}

/// SQLite's reader connections beside its writer: beyond a few, more only add waits for the write lock and empty
/// each other's page caches. Measured with the sending benchmark: 4 connections sent about 15% more per second
/// than 20, with less CPU per message.
const SQLITE_READERS: u32 = 3;

/// How often SQLite's write-ahead log is copied into the database file, and how many pages behind a connection
/// copies it itself. SQLite's own way (every 1,000 pages, by whichever connection commits then) made the writer copy
/// it, in the middle of the claims, hand-overs and sent marks waiting for it: copied beside it, the sending pipeline
/// sent about 4 % more a second (docs/benchmarks.md, Sending). Once a second rather than ten times: a page written
/// again and again (an index's, a day's counters, the queue's) is copied once a second, and the copying took 2.7–2.9
/// instead of 4.4–4.8 µs of CPU a message sent (two alternate pairs of 100,000 messages).
const SQLITE_CHECKPOINT_EVERY: Duration = Duration::from_secs(1);
const SQLITE_CHECKPOINT_BEHIND_PAGES: u32 = 16_384;

/// Copies the write-ahead log into the database file on a connection of its own until the writer's pool closes (or
/// is dropped). A passive checkpoint: it never waits for, nor holds up, a reader or the writer.
async fn copy_log_beside_the_writer(options: SqliteConnectOptions, writer_closed: CloseEvent) {
    let mut connection = match options.connect().await {
        Ok(connection) => connection,
        Err(error) => {
            tracing::warn!(%error, "SQLite's log is copied by its writers only: no connection for it");
            return;
        }
    };
    let mut ticks = tokio::time::interval(SQLITE_CHECKPOINT_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut writer_closed = std::pin::pin!(writer_closed);
    loop {
        tokio::select! {
            _ = &mut writer_closed => break,
            _ = ticks.tick() => {}
        }
        if let Err(error) = sqlx::query("pragma wal_checkpoint(passive)")
            .execute(&mut connection)
            .await
        {
            tracing::warn!(%error, "SQLite's log not copied this time");
        }
    }
    connection.close().await.ok();
}

/// How much of a SQLite file its connections read through a memory map (256 MiB).
const SQLITE_MMAP_BYTES: u64 = 256 * 1024 * 1024;

/// The hand-over file's name: the main file's with this after it (`outreach.db` beside `outreach.db-handovers`).
pub const HAND_OVER_FILE: &str = "-handovers";

/// The hand-over file's one table (see `Db::Sqlite`): the message, its connection and window (`handed_by` null:
/// a hand-over undone, the server refused the message after its content), and its Message-ID. A row is current
/// only while its message is in sending; the others are forgotten after the sent mark and by recovery's sweep
/// (`SendingStore::forget_hand_overs`).
const HAND_OVER_TABLE: &str = "create table if not exists send_handovers (message integer primary key, \
    handed_by text, handed_seq integer, message_id text)";

/// A pool of SQLite connections with `wait_for_write_lock` as their busy handler; the hand-over file's sees the main
/// file `app` as `app` (see `Db::Sqlite`).
fn sqlite_pool(app: Option<String>) -> SqlitePoolOptions {
    SqlitePoolOptions::new().after_connect(move |connection, _| {
        let app = app.clone();
        Box::pin(async move {
            if let Some(app) = app {
                sqlx::query("attach database ? as app")
                    .bind(app)
                    .execute(&mut *connection)
                    .await?;
                // Read through a memory map as the main file's own connections do (`mmap_size` is per file).
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "pragma app.mmap_size = {SQLITE_MMAP_BYTES}"
                )))
                .execute(&mut *connection)
                .await?;
            }
            let mut handle = connection.lock_handle().await?;
            // SAFETY: the handle is locked out of the connection's thread for this call, and the handler is a
            // plain function that keeps no state.
            unsafe {
                libsqlite3_sys::sqlite3_busy_handler(
                    handle.as_raw_handle().as_ptr(),
                    Some(wait_for_write_lock),
                    std::ptr::null_mut(),
                );
            }
            Ok(())
        })
    })
}

/// The hand-overs on record in the main file when migration 44 moved them out (it set them aside as
/// `send_handovers_moved`: a migration's connection cannot reach another file), into the hand-over file. Again after
/// a crash in the middle: the copy replaces what it copied before.
async fn take_hand_overs_from_the_main_file(hand_overs: &SqlitePool) -> Result<(), DbError> {
    let set_aside: i64 = sqlx::query_scalar(
        "select count(*) from app.sqlite_master where type = 'table' and name = 'send_handovers_moved'",
    )
    .fetch_one(hand_overs)
    .await?;
    if set_aside > 0 {
        let mut tx = hand_overs.begin_write().await?;
        sqlx::query(
            "insert or replace into send_handovers (message, handed_by, handed_seq, message_id) \
             select message, handed_by, handed_seq, message_id from app.send_handovers_moved",
        )
        .execute(&mut *tx)
        .await?;
        sqlx::query("drop table app.send_handovers_moved")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    Ok(())
}

/// How long a write waits for another connection's transaction before it gives up with "database is locked".
const SQLITE_LOCK_TIMEOUT: Duration = Duration::from_secs(10);
/// A waiting write tries again this often for its first `SQLITE_QUICK_RETRIES` tries (transactions here take
/// well under a few milliseconds), and every millisecond after that.
const SQLITE_QUICK_RETRY: Duration = Duration::from_micros(100);
const SQLITE_QUICK_RETRIES: u32 = 2_000;

/// How long a write that found the database locked `tries` times sleeps before it tries again; `None` once it
/// has waited `SQLITE_LOCK_TIMEOUT` in all.
fn pause_before_retry(tries: u32) -> Option<Duration> {
    let quick_total = SQLITE_QUICK_RETRY * SQLITE_QUICK_RETRIES;
    let slow_tries = (SQLITE_LOCK_TIMEOUT - quick_total).as_millis() as u32;
    if tries < SQLITE_QUICK_RETRIES {
        Some(SQLITE_QUICK_RETRY)
    } else if tries < SQLITE_QUICK_RETRIES + slow_tries {
        Some(Duration::from_millis(1))
    } else {
        None
    }
}

/// SQLite's busy handler, called on the connection's own thread while another connection holds the write lock;
/// non-zero means "try again". SQLite's default handler (what `busy_timeout` installs) sleeps 1, 2, 5, 10... up to
/// 100 ms between tries: a write that waited for a transaction of a few hundred microseconds slept for
/// milliseconds while the lock stood free. Concurrent sending batches, whose claims and sent marks follow each
/// other closely, lost a third of their throughput that way (sending benchmark, see README).
extern "C" fn wait_for_write_lock(_: *mut c_void, tries: c_int) -> c_int {
    match pause_before_retry(u32::try_from(tries).unwrap_or(0)) {
        Some(pause) => {
            std::thread::sleep(pause);
            1
        }
        None => 0,
    }
}

impl Db {
    /// Connects to the URL's backend. SQLite files (and their folder) are created on first use.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Self, DbError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // A session left inside a transaction for 30 s was abandoned (every transaction here is a few
            // statements with no network call between them): the server ends it, so that a task cut in the middle
            // of one (a job stopped by the shutdown timeout) cannot hold its row locks for ever. Seen: a worker's
            // lease could never be given back behind such a session, and its stop waited for ever.
            // No JIT: it compiles a plan whenever its estimated cost passes a threshold, and every query here is
            // short. Measured at a million messages: the follow-up run's scan spent 206 of its 614 ms compiling,
            // and the check after each send batch for follow-ups left (430–600 ms) most of its time.
            let options = PgConnectOptions::from_str(url)?.options([
                ("idle_in_transaction_session_timeout", "30000"),
                ("jit", "off"),
            ]);
            let pool = PgPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(options)
                .await?;
            Ok(Db::Postgres(pool))
        } else if let Some(path) = url.strip_prefix("sqlite://") {
            let file = path.split('?').next().unwrap_or(path);
            if let Some(folder) = std::path::Path::new(file)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
            {
                std::fs::create_dir_all(folder)
                    .map_err(|e| DbError::Folder(folder.display().to_string(), e))?;
            }
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // NORMAL is durable under WAL except for the last transactions before a power loss.
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                // Replaced by `wait_for_write_lock` once connected; covers opening the file.
                .busy_timeout(SQLITE_LOCK_TIMEOUT)
                // Every write by one connection empties the others' page caches; reading pages through a memory
                // map instead of copying them in again cut the sending pipeline's CPU per message (see README).
                .pragma("mmap_size", SQLITE_MMAP_BYTES.to_string())
                // The log is copied into the database file beside the writer (`copy_log_beside_the_writer`); a
                // connection does it itself only when that falls this far behind.
                .pragma(
                    "wal_autocheckpoint",
                    SQLITE_CHECKPOINT_BEHIND_PAGES.to_string(),
                );
            let hand_over_file = format!("{file}{HAND_OVER_FILE}");
            let readers = sqlite_pool(None)
                .max_connections(max_connections.clamp(1, SQLITE_READERS))
                .connect_with(options.clone())
                .await?;
            let writer = sqlite_pool(None)
                .max_connections(1)
                .connect_with(options.clone())
                .await?;
            // The hand-over file's one connection makes its table, and sees the main file as `app` (a hand-over
            // is recorded only for a message still in sending). Its log is small: SQLite's own checkpoints do.
            let hand_overs = sqlite_pool(Some(file.to_string()))
                .max_connections(1)
                .connect_with(
                    options
                        .clone()
                        .filename(&hand_over_file)
                        .pragma("wal_autocheckpoint", "1000"),
                )
                .await?;
            sqlx::query(HAND_OVER_TABLE).execute(&hand_overs).await?;
            tokio::spawn(copy_log_beside_the_writer(options, writer.close_event()));
            Ok(Db::Sqlite {
                readers,
                writer,
                hand_overs,
            })
        } else {
            Err(DbError::UnsupportedUrl(
                url.split('@').next_back().unwrap_or(url).to_string(),
            ))
        }
    }

    /// The same database for use on the runtime this is called on. A PostgreSQL connection is driven by the runtime
    /// that opened it (every answer on its socket would wake that runtime's threads first), so another runtime gets
    /// a pool of its own with the same settings; SQLite's connections run on threads of their own, and its pools
    /// (the one writer among them) stay shared.
    pub async fn for_this_runtime(&self) -> Result<Self, DbError> {
        match self {
            Db::Postgres(pool) => {
                let options = (*pool.connect_options()).clone();
                Ok(Db::Postgres(
                    pool.options().clone().connect_with(options).await?,
                ))
            }
            Db::Sqlite { .. } => Ok(self.clone()),
        }
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Db::Postgres(_) => "postgres",
            Db::Sqlite { .. } => "sqlite",
        }
    }

    /// Applies apalis's queue migrations and ours. They share the migrations table, so each ignores the other's rows.
    pub async fn migrate(&self) -> Result<(), DbError> {
        match self {
            Db::Postgres(pool) => {
                let mut queue = apalis_postgres::PostgresStorage::migrations();
                queue.set_ignore_missing(true).run(pool).await?;
                ignoring_missing(&PG_MIGRATIONS).run(pool).await?;
            }
            Db::Sqlite {
                writer: pool,
                hand_overs,
                ..
            } => {
                let mut queue = apalis_sqlite::SqliteStorage::migrations();
                queue.set_ignore_missing(true).run(pool).await?;
                ignoring_missing(&SQLITE_MIGRATIONS).run(pool).await?;
                take_hand_overs_from_the_main_file(hand_overs).await?;
            }
        }
        Ok(())
    }

    /// Applies our migrations up to `version` only: tests of a later migration over rows written before it.
    #[cfg(any(test, feature = "testing"))]
    pub async fn migrate_until(&self, version: i64) -> Result<(), DbError> {
        let until = |source: &Migrator| {
            let mut migrator = Migrator::with_migrations(
                source
                    .iter()
                    .filter(|m| m.version <= version)
                    .cloned()
                    .collect(),
            );
            migrator.set_ignore_missing(true);
            migrator
        };
        match self {
            Db::Postgres(pool) => until(&PG_MIGRATIONS).run(pool).await?,
            Db::Sqlite { writer: pool, .. } => until(&SQLITE_MIGRATIONS).run(pool).await?,
        }
        Ok(())
    }

    /// True when the database answers and our latest migration is applied.
    pub async fn is_ready(&self) -> bool {
        let latest = match self {
            Db::Postgres(_) => PG_MIGRATIONS.iter().map(|m| m.version).max(),
            Db::Sqlite { .. } => SQLITE_MIGRATIONS.iter().map(|m| m.version).max(),
        };
        let Some(latest) = latest else { return false };
        let sql = queries::MIGRATION_APPLIED.sql(self);
        let applied: Result<i64, sqlx::Error> =
            on_db!(self, pool => sqlx::query_scalar(sql).bind(latest).fetch_one(pool).await);
        matches!(applied, Ok(count) if count > 0)
    }

    /// Starts a write transaction (see `Tx`).
    pub async fn begin_write(&self) -> StoreResult<Tx> {
        Ok(match self {
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
            Db::Sqlite { writer, .. } => Tx::Sqlite(writer.begin_write().await?),
        })
    }

    /// Prepares a query without running it (used by the guard test that every query is valid on both backends).
    pub async fn prepare(&self, query: &Query) -> Result<(), sqlx::Error> {
        use sqlx::{Executor, SqlSafeStr};
        // A listing's order is filled in when it runs (`Query::ordered`); any column prepares it.
        let sql = sqlx::AssertSqlSafe(query.sql(self).replace("{order}", "1")).into_sql_str();
        match self {
            Db::Sqlite { hand_overs, .. } if query.hand_overs => {
                hand_overs.prepare(sql).await.map(drop)
            }
            _ => on_db!(self, pool => pool.prepare(sql).await.map(drop)),
        }
    }

    /// Runs a `delete ... where id = $1 and user_id = $2`; false when the owner has no such row.
    pub(crate) async fn delete_owned(
        &self,
        query: &Query,
        id: i64,
        user_id: i64,
    ) -> StoreResult<bool> {
        let sql = query.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(user_id).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    pub async fn close(&self) {
        match self {
            Db::Postgres(pool) => pool.close().await,
            Db::Sqlite {
                readers,
                writer,
                hand_overs,
            } => {
                readers.close().await;
                writer.close().await;
                hand_overs.close().await;
            }
        }
    }
}

/// The names of the migrations of one dialect, for the guard test that the two listings are paired.
pub fn migration_names(backend: &str) -> Vec<(i64, String)> {
    let migrator = if backend == "postgres" {
        &PG_MIGRATIONS
    } else {
        &SQLITE_MIGRATIONS
    };
    migrator
        .iter()
        .map(|m| (m.version, m.description.to_string()))
        .collect()
}

/// A copy of an embedded migrator that tolerates the other migrator's rows in the shared table.
fn ignoring_missing(source: &Migrator) -> Migrator {
    let mut migrator = Migrator::with_migrations(source.iter().cloned().collect());
    migrator.set_ignore_missing(true);
    migrator
}

/// A JSON array: the one list parameter both databases read (`json_each`, `jsonb_array_elements_text`).
pub(crate) fn json_list<T: serde::Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).expect("plain values serialise")
}

/// The rows of a SQLite statement that returns them all as one JSON array (`json_group_array`), for the reads of
/// a send batch. sqlx hands a statement's rows over from the connection's thread one at a time, each waking the
/// task that reads them: for a batch of 200 messages that was 200 wake-ups where one will do (the sending
/// benchmark's load step 15.6 → 10.2 µs a message; docs/benchmarks.md, Sending).
pub(crate) async fn fetch_json_rows<'q, T: serde::de::DeserializeOwned>(
    query: sqlx::query::QueryScalar<'q, sqlx::Sqlite, String, sqlx::sqlite::SqliteArguments>,
    pool: &SqlitePool,
) -> StoreResult<Vec<T>> {
    let rows = query.fetch_one(pool).await?;
    serde_json::from_str(&rows).map_err(|error| sqlx::Error::Decode(Box::new(error)))
}

/// One field of each row, as the array PostgreSQL's batch statements bind (`unnest` of one array a column).
pub(crate) fn column<'r, T, U>(rows: &'r [T], pick: impl Fn(&'r T) -> U) -> Vec<U> {
    rows.iter().map(pick).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_locked_write_retries_quickly_then_each_millisecond_and_gives_up_after_the_timeout() {
        assert_eq!(pause_before_retry(0), Some(SQLITE_QUICK_RETRY));
        assert_eq!(
            pause_before_retry(SQLITE_QUICK_RETRIES - 1),
            Some(SQLITE_QUICK_RETRY)
        );
        assert_eq!(
            pause_before_retry(SQLITE_QUICK_RETRIES),
            Some(Duration::from_millis(1))
        );
        let waited: Duration = (0..).map_while(pause_before_retry).sum();
        assert_eq!(waited, SQLITE_LOCK_TIMEOUT);
    }
}
