//! What a campaign's and a user's messages show: a campaign's messages by state, the ones still queued, the local
//! outbox, and why messages failed.

use serde::Serialize;

use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::sending::SendingStore;
use crate::sending::messages::MessageStatus;

/// A campaign's messages by state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub queued: i64,
    pub sending: i64,
    pub sent: i64,
    pub failed: i64,
    /// Not counted as failed: content under way when its worker died or its answer never came. It may have
    /// arrived, and it is never sent again.
    pub uncertain: i64,
    pub skipped: i64,
    pub total: i64,
}

impl Progress {
    /// Messages are still waiting to go out.
    pub fn waiting(&self) -> bool {
        self.queued + self.sending > 0
    }
}

/// An outbox entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMessage {
    pub id: i64,
    pub campaign_id: Option<i64>,
    pub to_email: String,
    pub subject: String,
    pub html_body: Option<String>,
    pub text_body: Option<String>,
    pub status: MessageStatus,
    pub sent_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub message_id: Option<String>,
    /// A test send (to the user's test address), not campaign mail.
    pub is_test: bool,
}

impl SendingStore<'_> {
    /// Why those of the messages that failed or were skipped were not sent, with their status.
    pub async fn message_errors(&self, ids: &[i64]) -> StoreResult<Vec<(MessageStatus, String)>> {
        let sql = OUTGOING_ERRORS.sql(self);
        let mut errors = Vec::new();
        for id in ids {
            let error: Option<(MessageStatus, String)> =
                on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)?;
            errors.extend(error);
        }
        Ok(errors)
    }

    /// How many test messages the user wrote since `since` (epoch ms).
    pub async fn tests_since(&self, user_id: i64, since: i64) -> StoreResult<i64> {
        let sql = OUTGOING_TESTS_SINCE.sql(self);
        Ok(
            on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(since).fetch_one(pool).await)?,
        )
    }

    pub async fn campaign_progress(&self, campaign_id: i64) -> StoreResult<Progress> {
        let sql = OUTGOING_PROGRESS.sql(self);
        let rows: Vec<(MessageStatus, bool, i64)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)?;
        let mut progress = Progress::default();
        for (status, uncertain, count) in rows {
            match status {
                MessageStatus::Queued => progress.queued += count,
                // Queued messages with a claim, counted among the queued too.
                MessageStatus::Sending => {
                    progress.sending += count;
                    progress.queued -= count;
                    continue;
                }
                MessageStatus::Failed if uncertain => progress.uncertain += count,
                MessageStatus::Failed | MessageStatus::Bounced => progress.failed += count,
                MessageStatus::Skipped => progress.skipped += count,
                MessageStatus::Sent
                | MessageStatus::Delivered
                | MessageStatus::Opened
                | MessageStatus::Replied
                | MessageStatus::Spam => progress.sent += count,
            }
            progress.total += count;
        }
        Ok(progress)
    }

    pub async fn queued_message_ids(&self, campaign_id: i64) -> StoreResult<Vec<i64>> {
        let sql = OUTGOING_QUEUED_IDS.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).fetch_all(pool).await)
    }

    pub async fn outbox(&self, user_id: i64, limit: i64) -> StoreResult<Vec<OutboxMessage>> {
        let sql = OUTGOING_OUTBOX.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }
}
