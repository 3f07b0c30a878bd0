//! The audit log: every administrator action (console or command line) is written with the record as it was before
//! and after, in the same transaction as the change, and a change that changed nothing writes no entry. The change
//! itself is made by the owning capability's own writes, on the transaction an `Audit` opens.

use serde::Serialize;

use crate::on_tx;
use crate::platform::clock::Timestamp;
use crate::platform::db::{StoreResult, Tx};
use crate::platform::queries::*;

crate::capability_store!(
    /// The admin capability's reads and writes: `db.admin()`.
    AdminStore,
    admin
);

/// The actor of command-line actions.
pub const CLI_ACTOR: &str = "cli";

/// One value bound to a snapshot or a listing's filter (PostgreSQL wants each parameter's own type, even when it is
/// null).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Int(Option<i64>),
    Text(Option<String>),
    Bool(bool),
}

impl Arg {
    pub fn int(value: i64) -> Self {
        Arg::Int(Some(value))
    }

    pub fn text(value: impl Into<String>) -> Self {
        Arg::Text(Some(value.into()))
    }
}

/// Binds each `Arg` in order to a sqlx query of either backend.
#[macro_export]
macro_rules! bind_args {
    ($query:expr, $args:expr) => {{
        let mut query = $query;
        for arg in $args {
            query = match arg {
                $crate::admin::audit::Arg::Int(value) => query.bind(*value),
                $crate::admin::audit::Arg::Text(value) => query.bind(value.as_deref()),
                $crate::admin::audit::Arg::Bool(value) => query.bind(*value),
            };
        }
        query
    }};
}

/// An administrator's change: who, what, on which record (and how to read that record for the log), and why.
#[derive(Debug, Clone)]
pub struct Change {
    pub actor: String,
    pub action: &'static str,
    pub target_type: &'static str,
    pub target_id: String,
    /// Reads the record as JSON text, before and after the change (none: the entry keeps what `after` says).
    pub snapshot: Option<(&'static Query, Arg)>,
    pub reason: Option<String>,
    /// What the entry keeps as `after` when there is no snapshot (what an enqueueing action did).
    pub after: Option<serde_json::Value>,
}

impl Change {
    pub fn new(
        actor: &str,
        action: &'static str,
        target_type: &'static str,
        target_id: impl ToString,
    ) -> Self {
        Self {
            actor: actor.to_string(),
            action,
            target_type,
            target_id: target_id.to_string(),
            snapshot: None,
            reason: None,
            after: None,
        }
    }

    pub fn snapshot(mut self, query: &'static Query, key: Arg) -> Self {
        self.snapshot = Some((query, key));
        self
    }

    pub fn reason(mut self, reason: Option<String>) -> Self {
        self.reason = reason;
        self
    }

    pub fn after(mut self, after: serde_json::Value) -> Self {
        self.after = Some(after);
        self
    }
}

/// An entry of the audit log.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    /// The administrator's email, or `cli`.
    pub actor: String,
    pub action: String,
    pub target_type: String,
    pub target_id: String,
    /// The record as JSON text before the change (none when it did not exist).
    pub before: Option<String>,
    pub after: Option<String>,
    pub reason: Option<String>,
    pub created_at: Timestamp,
}

/// A change under way: its entry is written and the record read as it was, on the transaction the capabilities'
/// writes take (`tx`); `finish` records it as it is after them and commits.
pub struct Audit<'c> {
    change: &'c Change,
    tx: Tx,
    id: i64,
    before: Option<String>,
    now: i64,
}

impl AdminStore<'_> {
    /// Opens a change's transaction with its audit entry and the record as it was.
    pub async fn audit<'c>(&self, change: &'c Change, now: i64) -> StoreResult<Audit<'c>> {
        let mut tx = self.begin_write().await?;
        let insert = tx.sql(&ADMIN_AUDIT_INSERT);
        let id: i64 = on_tx!(&mut tx, conn => sqlx::query_scalar(insert).bind(&change.actor).bind(change.action)
            .bind(change.target_type).bind(&change.target_id).bind(change.reason.as_deref()).bind(now)
            .fetch_one(conn).await)?;
        let mut audit = Audit {
            change,
            tx,
            id,
            before: None,
            now,
        };
        audit.before = audit.snapshot().await?;
        Ok(audit)
    }
}

impl Audit<'_> {
    /// The transaction the change's writes take.
    pub fn tx(&mut self) -> &mut Tx {
        &mut self.tx
    }

    /// The record as JSON text, read by the change's snapshot query.
    async fn snapshot(&mut self) -> StoreResult<Option<String>> {
        let Some((query, key)) = &self.change.snapshot else {
            return Ok(None);
        };
        let sql = self.tx.sql(query);
        on_tx!(&mut self.tx, conn => bind_args!(sqlx::query_scalar(sql), [key]).fetch_optional(conn).await)
    }

    /// `finish` when the writes `changed` something; when they changed nothing (the record is missing or already as
    /// asked), rolls back and answers None.
    pub async fn finish_if(self, changed: bool) -> StoreResult<Option<AuditEntry>> {
        if !changed {
            self.tx.rollback().await?;
            return Ok(None);
        }
        self.finish().await.map(Some)
    }

    /// Writes the entry with the record as it is now and commits (for a change whose writes fail rather than do
    /// nothing).
    pub async fn finish(mut self) -> StoreResult<AuditEntry> {
        let after = match self.change.snapshot {
            Some(_) => self.snapshot().await?,
            None => self.change.after.as_ref().map(|after| after.to_string()),
        };
        let update = self.tx.sql(&ADMIN_AUDIT_UPDATE);
        on_tx!(&mut self.tx, conn => sqlx::query(update).bind(self.id).bind(self.before.as_deref())
            .bind(after.as_deref()).execute(conn).await.map(drop))?;
        self.tx.commit().await?;
        let change = self.change;
        Ok(AuditEntry {
            id: self.id,
            actor: change.actor.clone(),
            action: change.action.to_string(),
            target_type: change.target_type.to_string(),
            target_id: change.target_id.clone(),
            before: self.before,
            after,
            reason: change.reason.clone(),
            created_at: Timestamp(self.now),
        })
    }
}
