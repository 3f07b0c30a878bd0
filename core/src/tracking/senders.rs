//! Analytics per sender (issue 79): what each of a user's mailboxes sent and what came back (bounces, replies, spam
//! complaints), so a mailbox that drags a pool down shows.

use crate::on_db;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::tracking::TrackingStore;

/// One sender's figures over all its campaign mail.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SenderFigures {
    #[sqlx(rename = "id")]
    pub email_config_id: i64,
    #[sqlx(rename = "send_from")]
    pub address: String,
    /// The user removed it; its history stays.
    pub removed: bool,
    pub sent: i64,
    pub bounced: i64,
    pub replied: i64,
    pub complaints: i64,
}

impl TrackingStore<'_> {
    /// Each of the user's senders with its figures.
    pub async fn sender_figures(&self, user_id: i64) -> StoreResult<Vec<SenderFigures>> {
        let sql = ANALYTICS_SENDERS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }
}
