//! Contacts (B §2.7, §3 Contact stats, §4 badge precedence; A §1 interactions, notes, engagement history): everyone
//! a user's campaigns wrote to, with what happened, the full history of one contact (every message with its events
//! and every reply or other mail received) and the user's own notes on them. Contacts are per user, one row each,
//! kept by triggers as messages change (migration 0013), so the list and stats do not read every message.

use serde::Serialize;

use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::tracking::TrackingStore;
use crate::tracking::analytics::percent;
use crate::tracking::sent::SentEmail;

/// How many contacts the list holds at most (the most recently contacted).
pub const CONTACT_LIST_MAX: i64 = 2_000;
pub const NOTE_MAX_CHARS: usize = 5_000;

/// A contact and the first time each thing happened across the messages to them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Contact {
    pub email: String,
    pub name: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub website: Option<String>,
    pub category: Option<String>,
    pub messages: i64,
    pub sent: i64,
    pub last_sent_at: Option<Timestamp>,
    pub delivered_at: Option<Timestamp>,
    pub opened_at: Option<Timestamp>,
    pub clicked_at: Option<Timestamp>,
    pub replied_at: Option<Timestamp>,
    pub bounced_at: Option<Timestamp>,
    pub spam_reported_at: Option<Timestamp>,
    pub unsubscribed_at: Option<Timestamp>,
    pub last_activity_at: Timestamp,
    /// `interested` or `not_interested`, as their latest reply showed it.
    pub interest: Option<String>,
    /// B §4 badge: Unsubscribed, Spam Report, Bounced, Replied, Opened, Delivered, Sent, else the raw status.
    #[sqlx(skip)]
    pub status: String,
}

impl Contact {
    /// The badge of B §4; a contact whose messages all failed shows 'Failed'.
    pub fn badge(&self) -> &'static str {
        [
            (self.unsubscribed_at, "Unsubscribed"),
            (self.spam_reported_at, "Spam Report"),
            (self.bounced_at, "Bounced"),
            (self.replied_at, "Replied"),
            (self.opened_at, "Opened"),
            (self.delivered_at, "Delivered"),
            (self.last_sent_at, "Sent"),
        ]
        .into_iter()
        .find_map(|(at, label)| at.map(|_| label))
        .unwrap_or("Failed")
    }
}

/// B §3 Contact stats (rates are whole-number percentages of the contacts reached).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactStats {
    pub total_contacted: i64,
    pub total_opened: i64,
    pub open_rate: i64,
    pub total_clicks: i64,
    pub total_replied: i64,
    pub reply_rate: i64,
    pub total_bounced: i64,
    pub total_spam_reports: i64,
}

/// Mail received from (or about a message to) a contact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Received {
    pub id: i64,
    pub message_id: Option<i64>,
    /// `reply`, `auto_reply` or `bounce`.
    pub kind: String,
    pub from_email: Option<String>,
    pub subject: String,
    pub body: String,
    pub detail: Option<String>,
    pub source: String,
    pub received_at: Timestamp,
}

/// A note the user keeps on a contact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    pub id: i64,
    pub body: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// Everything about one contact, oldest first.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactHistory {
    pub email: String,
    pub messages: Vec<SentEmail>,
    pub received: Vec<Received>,
    pub notes: Vec<Note>,
}

/// Why a note was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoteError {
    #[error("Note cannot be empty")]
    Empty,
    #[error("Note is too long (at most 5,000 characters)")]
    TooLong,
}

/// A note's text, trimmed, or why it is refused.
pub fn valid_note(body: &str) -> Result<String, NoteError> {
    let body = body.trim();
    if body.is_empty() {
        Err(NoteError::Empty)
    } else if body.chars().count() > NOTE_MAX_CHARS {
        Err(NoteError::TooLong)
    } else {
        Ok(body.to_string())
    }
}

/// Addresses are kept lower-case; a contact is looked up the same way.
pub fn contact_key(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

impl TrackingStore<'_> {
    /// The user's contacts, most recently contacted first, each with its badge.
    pub async fn contacts(&self, user_id: i64) -> StoreResult<Vec<Contact>> {
        let sql = CONTACTS_LIST.sql(self);
        let mut contacts: Vec<Contact> = on_db!(self, pool => sqlx::query_as(sql).bind(user_id)
            .bind(CONTACT_LIST_MAX).fetch_all(pool).await)?;
        for contact in &mut contacts {
            contact.status = contact.badge().to_string();
        }
        Ok(contacts)
    }

    pub async fn contact_stats(&self, user_id: i64) -> StoreResult<ContactStats> {
        let sql = CONTACTS_STATS.sql(self);
        let (contacted, opened, replied, bounced, spam, clicks): (i64, i64, i64, i64, i64, i64) =
            on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_one(pool).await)?;
        Ok(ContactStats {
            total_contacted: contacted,
            total_opened: opened,
            open_rate: percent(opened, contacted),
            total_clicks: clicks,
            total_replied: replied,
            reply_rate: percent(replied, contacted),
            total_bounced: bounced,
            total_spam_reports: spam,
        })
    }

    async fn is_contact(&self, user_id: i64, email: &str) -> StoreResult<bool> {
        let sql = CONTACTS_KNOWN.sql(self);
        let count: i64 = on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(email)
            .fetch_one(pool).await)?;
        Ok(count > 0)
    }

    /// One contact's history; None when the user never wrote to the address.
    pub async fn contact_history(
        &self,
        user_id: i64,
        email: &str,
    ) -> StoreResult<Option<ContactHistory>> {
        let email = contact_key(email);
        let (messages, received, notes) = (
            CONTACTS_MESSAGES.sql(self),
            CONTACTS_INBOUND.sql(self),
            CONTACTS_NOTES.sql(self),
        );
        let mut sent: Vec<SentEmail> = on_db!(self, pool => sqlx::query_as(messages).bind(user_id)
            .bind(&email).fetch_all(pool).await)?;
        if sent.is_empty() {
            return Ok(None);
        }
        self.attach_events(&mut sent).await?;
        let received: Vec<Received> = on_db!(self, pool => sqlx::query_as(received).bind(user_id)
            .bind(&email).fetch_all(pool).await)?;
        let notes: Vec<Note> = on_db!(self, pool => sqlx::query_as(notes).bind(user_id).bind(&email)
            .fetch_all(pool).await)?;
        Ok(Some(ContactHistory {
            email,
            messages: sent,
            received,
            notes,
        }))
    }

    /// Adds a note to one of the user's contacts; None when the address is not a contact of theirs.
    pub async fn add_note(
        &self,
        user_id: i64,
        email: &str,
        body: &str,
        at: i64,
    ) -> StoreResult<Option<Note>> {
        let email = contact_key(email);
        if !self.is_contact(user_id, &email).await? {
            return Ok(None);
        }
        let sql = CONTACTS_NOTE_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(&email).bind(body).bind(at)
            .fetch_one(pool).await)
        .map(Some)
    }

    /// Edits one of the user's notes; None when it is not theirs.
    pub async fn update_note(
        &self,
        id: i64,
        user_id: i64,
        body: &str,
        at: i64,
    ) -> StoreResult<Option<Note>> {
        let sql = CONTACTS_NOTE_UPDATE.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).bind(body).bind(at)
            .fetch_optional(pool).await)
    }

    /// Deletes one of the user's notes; false when it is not theirs.
    pub async fn delete_note(&self, id: i64, user_id: i64) -> StoreResult<bool> {
        let sql = CONTACTS_NOTE_DELETE.sql(self);
        let done = on_db!(self, pool => sqlx::query(sql).bind(id).bind(user_id).execute(pool).await
            .map(|done| done.rows_affected()))?;
        Ok(done > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contact() -> Contact {
        Contact {
            email: "a@b.example".into(),
            name: None,
            phone: None,
            address: None,
            website: None,
            category: None,
            messages: 1,
            sent: 1,
            last_sent_at: Some(Timestamp(1)),
            delivered_at: None,
            opened_at: None,
            clicked_at: None,
            replied_at: None,
            bounced_at: None,
            spam_reported_at: None,
            unsubscribed_at: None,
            last_activity_at: Timestamp(1),
            interest: None,
            status: String::new(),
        }
    }

    #[test]
    fn badge_precedence_is_that_of_b4() {
        let mut c = contact();
        assert_eq!(c.badge(), "Sent");
        c.delivered_at = Some(Timestamp(2));
        assert_eq!(c.badge(), "Delivered");
        c.opened_at = Some(Timestamp(3));
        assert_eq!(c.badge(), "Opened");
        c.replied_at = Some(Timestamp(4));
        assert_eq!(c.badge(), "Replied");
        c.bounced_at = Some(Timestamp(5));
        assert_eq!(c.badge(), "Bounced");
        c.spam_reported_at = Some(Timestamp(6));
        assert_eq!(c.badge(), "Spam Report");
        c.unsubscribed_at = Some(Timestamp(7));
        assert_eq!(c.badge(), "Unsubscribed");
        let mut failed = contact();
        failed.last_sent_at = None;
        assert_eq!(failed.badge(), "Failed");
    }

    #[test]
    fn notes_are_trimmed_and_bounded() {
        assert_eq!(
            valid_note("  call back Monday "),
            Ok("call back Monday".into())
        );
        assert_eq!(valid_note("   "), Err(NoteError::Empty));
        assert_eq!(valid_note(&"x".repeat(5_001)), Err(NoteError::TooLong));
        assert!(valid_note(&"é".repeat(5_000)).is_ok());
    }
}
