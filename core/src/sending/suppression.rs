//! The suppression list: addresses that unsubscribed, bounced hard or reported spam, never written to again. It is
//! sending's, which checks it before every message; tracking (the unsubscribe page) and inbound (bounces, spam
//! reports, replies asking to stop) add to it.

use std::collections::HashSet;

use serde::Serialize;

use crate::platform::clock::Timestamp;
use crate::platform::db::{StoreResult, Tx, json_list};
use crate::platform::queries::*;
use crate::sending::SendingStore;
use crate::{on_db, on_tx, on_writer};

/// A suppressed address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unsubscribe {
    pub email: String,
    pub source: String,
    pub created_at: Timestamp,
}

impl SendingStore<'_> {
    /// Suppresses an address; returns false when it already was.
    pub async fn insert_unsubscribe(
        &self,
        email: &str,
        source: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let mut tx = self.begin_write().await?;
        let added = suppress(&mut tx, email, source, now).await?;
        tx.commit().await?;
        Ok(added)
    }

    /// Suppresses addresses in one statement, each `(normalised address, source, time)`: unsubscribes that arrived
    /// together (`tracking::unsubscriber`). Returns the addresses that were not suppressed before; an address asked
    /// for twice keeps its first request.
    pub async fn insert_unsubscribes(
        &self,
        entries: &[(&str, &str, i64)],
    ) -> StoreResult<HashSet<String>> {
        if entries.is_empty() {
            return Ok(HashSet::new());
        }
        let (sql, entries) = (UNSUBSCRIBE_INSERT_BATCH.sql(self), json_list(entries));
        let added: Vec<String> =
            on_writer!(self, pool => sqlx::query_scalar(sql).bind(&entries).fetch_all(pool).await)?;
        Ok(added.into_iter().collect())
    }

    pub async fn find_unsubscribe(&self, email: &str) -> StoreResult<Option<Unsubscribe>> {
        let sql = UNSUBSCRIBE_FIND.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(email).fetch_optional(pool).await)
    }

    /// A page of suppressed addresses containing `filter` (all with ""), and how many match.
    pub async fn list_unsubscribes(
        &self,
        filter: &str,
        limit: i64,
        offset: i64,
    ) -> StoreResult<(Vec<Unsubscribe>, i64)> {
        let (list, count) = (UNSUBSCRIBE_LIST.sql(self), UNSUBSCRIBE_COUNT.sql(self));
        on_db!(self, pool => {
            let rows = sqlx::query_as(list).bind(filter).bind(limit).bind(offset).fetch_all(pool).await?;
            let total = sqlx::query_scalar(count).bind(filter).fetch_one(pool).await?;
            Ok((rows, total))
        })
    }

    /// Why `user_id` may not write to `email` any more (it unsubscribed, or bounced or reported spam to this
    /// user), or None: the same rules a send batch applies, for a send that should be refused up front.
    pub async fn why_not_mailable(
        &self,
        user_id: i64,
        email: &str,
    ) -> StoreResult<Option<&'static str>> {
        let email = vec![crate::accounts::normalize_email(email)];
        if !self.suppressed_among(&email).await?.is_empty() {
            return Ok(Some("the recipient unsubscribed"));
        }
        if !self.suppressed_for_user(user_id, &email).await?.is_empty() {
            return Ok(Some("the address bounced or reported spam earlier"));
        }
        Ok(None)
    }

    /// Which of these normalised addresses the user may not send to after bounces and spam reports.
    pub async fn suppressed_for_user(
        &self,
        user_id: i64,
        emails: &[String],
    ) -> StoreResult<HashSet<String>> {
        let sql = FEEDBACK_SUPPRESSED_FOR_USER.sql(self);
        let list = json_list(emails);
        let found: Vec<String> = on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(&list).fetch_all(pool).await)?;
        Ok(found.into_iter().collect())
    }
}

/// Suppresses an address in a change of several writes; false when it already was.
pub async fn suppress(tx: &mut Tx, email: &str, source: &str, now: i64) -> StoreResult<bool> {
    let sql = tx.sql(&UNSUBSCRIBE_INSERT);
    on_tx!(tx, conn => sqlx::query(sql).bind(email).bind(source).bind(now).execute(conn).await
        .map(|done| done.rows_affected() == 1))
}

/// Takes an address off the list; false when it was not on it.
pub async fn unsuppress(tx: &mut Tx, email: &str) -> StoreResult<bool> {
    let sql = tx.sql(&UNSUBSCRIBE_REMOVE);
    on_tx!(tx, conn => sqlx::query(sql).bind(email).execute(conn).await.map(|done| done.rows_affected() > 0))
}
