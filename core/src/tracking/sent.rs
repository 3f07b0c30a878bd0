//! Sent emails as the user sees them (B §3 Sent email), each with its events: the email list, one email, and Mark
//! Opened (B §2.10). Contacts and analytics read the same events.

use std::collections::HashMap;

use serde::Serialize;

use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::db::BeginWrite;
use crate::platform::db::{StoreResult, json_list};
use crate::platform::queries::*;
use crate::sending::messages::{MessageKind, MessageStatus};
use crate::tracking::TrackingStore;
use crate::tracking::events::EventKind;

/// A sent email as the user sees it (B §3 Sent email), with its events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentEmail {
    pub id: i64,
    pub campaign_id: Option<i64>,
    pub business_id: Option<i64>,
    /// What it is: a first email, a follow-up, an answer to a reply.
    pub kind: MessageKind,
    /// 0 for a campaign's first message, n for its n-th follow-up or answer.
    pub step: i32,
    pub to_email: String,
    pub subject: String,
    #[serde(rename = "body")]
    pub html_body: Option<String>,
    pub status: MessageStatus,
    pub sent_at: Option<Timestamp>,
    pub created_at: Timestamp,
    pub opened_at: Option<Timestamp>,
    pub replied_at: Option<Timestamp>,
    pub delivered_at: Option<Timestamp>,
    pub clicked_at: Option<Timestamp>,
    pub bounced_at: Option<Timestamp>,
    pub bounce_reason: Option<String>,
    pub spam_reported_at: Option<Timestamp>,
    pub unsubscribed_at: Option<Timestamp>,
    #[serde(skip)]
    pub token: Option<String>,
    #[sqlx(skip)]
    pub events: Vec<SentEvent>,
}

/// One event of a sent email: `open` (machine or manual ones flagged), `click`, `reply`, `delivered`, `bounce`,
/// `spam`, `unsubscribe`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SentEvent {
    pub event_type: EventKind,
    pub occurred_at: Timestamp,
    pub url: Option<String>,
    pub machine: bool,
    pub manual: bool,
}

/// Whether a manual open was recorded, or the message was opened already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManualOpen {
    Marked,
    AlreadyOpened,
    NotFound,
}

impl TrackingStore<'_> {
    /// A page of the user's sent emails, newest first, each with its events.
    pub async fn sent_emails(
        &self,
        user_id: i64,
        limit: i64,
        offset: i64,
    ) -> StoreResult<Vec<SentEmail>> {
        let list = FEEDBACK_SENT_LIST.sql(self);
        let mut emails: Vec<SentEmail> = on_db!(self, pool => sqlx::query_as(list).bind(user_id).bind(limit)
            .bind(offset).fetch_all(pool).await)?;
        self.attach_events(&mut emails).await?;
        Ok(emails)
    }

    /// One of the user's messages with its body and events.
    pub async fn sent_email(&self, id: i64, user_id: i64) -> StoreResult<Option<SentEmail>> {
        let sql = FEEDBACK_SENT_ONE.sql(self);
        let email: Option<SentEmail> = on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id)
            .fetch_optional(pool).await)?;
        let Some(email) = email else { return Ok(None) };
        let mut emails = vec![email];
        self.attach_events(&mut emails).await?;
        Ok(emails.pop())
    }

    /// Fills each message's events, in one query for all of them.
    pub(crate) async fn attach_events(&self, emails: &mut [SentEmail]) -> StoreResult<()> {
        let tokens: Vec<&str> = emails
            .iter()
            .filter_map(|email| email.token.as_deref())
            .collect();
        let mut by_token = self.events_of_tokens(&tokens).await?;
        for email in emails {
            if let Some(token) = &email.token {
                email.events = by_token.remove(token).unwrap_or_default();
            }
        }
        Ok(())
    }

    /// The events of these messages (by token), oldest first.
    pub(crate) async fn events_of_tokens(
        &self,
        tokens: &[&str],
    ) -> StoreResult<HashMap<String, Vec<SentEvent>>> {
        let sql = FEEDBACK_EVENTS_OF_TOKENS.sql(self);
        type Row = (String, EventKind, Option<String>, Option<String>, bool, i64);
        let rows: Vec<Row> = on_db!(self, pool => sqlx::query_as(sql).bind(json_list(tokens))
            .fetch_all(pool).await)?;
        let mut by_token: HashMap<String, Vec<SentEvent>> = HashMap::new();
        for (token, kind, url, agent, machine, occurred_at) in rows {
            by_token.entry(token).or_default().push(SentEvent {
                event_type: kind,
                occurred_at: Timestamp(occurred_at),
                url,
                machine,
                manual: agent.as_deref() == Some("manual"),
            });
        }
        Ok(by_token)
    }

    /// Marks one of the user's sent messages opened by hand (B §2.10 Mark Opened).
    pub async fn mark_opened_manually(
        &self,
        id: i64,
        user_id: i64,
        at: i64,
    ) -> StoreResult<ManualOpen> {
        let (find, opened, event) = (
            FEEDBACK_OWNED_SENT.sql(self),
            FEEDBACK_OPENED.sql(self),
            FEEDBACK_MANUAL_OPEN.sql(self),
        );
        type Row = (
            i64,
            i64,
            Option<i64>,
            Option<i64>,
            String,
            Option<String>,
            String,
            Option<i64>,
        );
        let row: Option<Row> = on_db!(self, pool => sqlx::query_as(find).bind(id).bind(user_id)
            .fetch_optional(pool).await)?;
        let Some((_, _, _, _, _, token, _, opened_at)) = row else {
            return Ok(ManualOpen::NotFound);
        };
        if opened_at.is_some() {
            return Ok(ManualOpen::AlreadyOpened);
        }
        on_db!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(opened).bind(id).bind(at).execute(&mut *tx).await?;
            sqlx::query(event).bind(token.unwrap_or_default()).bind(at).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(())
        })?;
        Ok(ManualOpen::Marked)
    }
}
