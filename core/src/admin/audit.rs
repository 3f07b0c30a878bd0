//! The audit log: every administrator action (console or command line) is written with the record as it was before
//! and after, in the same transaction as the change, and a change that changed nothing writes no entry.

use serde::Serialize;

use crate::on_writer;
use crate::platform::clock::Timestamp;
use crate::platform::db::{Db, StoreResult};
use crate::platform::queries::*;

/// The actor of command-line actions.
pub const CLI_ACTOR: &str = "cli";

/// One value bound to a statement of a change (PostgreSQL wants each parameter's own type, even when it is null).
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

/// An administrator's change: who, what, on which record (and how to read that record for the log), why, and the
/// statements that make it.
#[derive(Debug, Clone)]
pub struct Change {
    pub actor: String,
    pub action: &'static str,
    pub target_type: &'static str,
    pub target_id: String,
    /// Reads the record as JSON text, before and after the statements (none: the entry keeps what `after` says).
    pub snapshot: Option<(&'static Query, Arg)>,
    pub reason: Option<String>,
    pub statements: Vec<(&'static Query, Vec<Arg>)>,
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
            statements: Vec::new(),
            after: None,
        }
    }

    pub fn snapshot(mut self, query: &'static Query, key: Arg) -> Self {
        self.snapshot = Some((query, key));
        self
    }

    pub fn statement(mut self, query: &'static Query, args: Vec<Arg>) -> Self {
        self.statements.push((query, args));
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

impl Db {
    /// Makes a change and writes its audit entry in one transaction. None, with nothing written, when the
    /// statements changed no row (the record is missing or already as asked).
    pub async fn apply_audited(
        &self,
        change: &Change,
        now: i64,
    ) -> StoreResult<Option<AuditEntry>> {
        let (insert, update) = (ADMIN_AUDIT_INSERT.sql(self), ADMIN_AUDIT_UPDATE.sql(self));
        let snapshot = change
            .snapshot
            .as_ref()
            .map(|(query, key)| (query.sql(self), key));
        on_writer!(self, pool => {
            let mut tx = pool.begin().await?;
            let id: i64 = sqlx::query_scalar(insert).bind(&change.actor).bind(change.action)
                .bind(change.target_type).bind(&change.target_id).bind(change.reason.as_deref()).bind(now)
                .fetch_one(&mut *tx).await?;
            let mut before: Option<String> = None;
            if let Some((sql, key)) = snapshot {
                before = bind_args!(sqlx::query_scalar(sql), [key]).fetch_optional(&mut *tx).await?;
            }
            let mut changed = change.statements.is_empty();
            for (query, args) in &change.statements {
                let done = bind_args!(sqlx::query(query.sql(self)), args).execute(&mut *tx).await?;
                changed |= done.rows_affected() > 0;
            }
            if !changed {
                tx.rollback().await?;
                return Ok(None);
            }
            let after: Option<String> = match snapshot {
                Some((sql, key)) => bind_args!(sqlx::query_scalar(sql), [key]).fetch_optional(&mut *tx).await?,
                None => change.after.as_ref().map(|after| after.to_string()),
            };
            sqlx::query(update).bind(id).bind(before.as_deref()).bind(after.as_deref()).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(Some(AuditEntry {
                id,
                actor: change.actor.clone(),
                action: change.action.to_string(),
                target_type: change.target_type.to_string(),
                target_id: change.target_id.clone(),
                before,
                after,
                reason: change.reason.clone(),
                created_at: Timestamp(now),
            }))
        })
    }
}
