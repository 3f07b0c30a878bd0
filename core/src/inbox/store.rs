//! The inbox's reads and writes: `db.inbox()`. Threads are filed by `inbound` as replies arrive; here they are
//! listed (keyset pages by the last reply), opened with their messages, and marked by the user.

use crate::inbox::{InboxStore, Label, ThreadQuery};
use crate::on_db;
use crate::on_writer;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::responses::{Action, Sentiment};
use crate::sending::messages::{MessageKind, MessageStatus};

/// How many of the newest threads a search reads in order before it looks through the search indexes: a common word
/// fills a page among them at once, a name or an address costs a thousand probes more (the inbox benchmark).
const SEARCH_RECENT: i64 = 1000;

/// A thread as the inbox lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ThreadRow {
    pub id: i64,
    /// The thread's first email.
    pub root_message_id: i64,
    /// The latest reply.
    pub last_inbound_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub campaign_name: Option<String>,
    pub business_id: Option<i64>,
    pub business_name: Option<String>,
    pub config_id: Option<i64>,
    pub to_email: String,
    pub subject: String,
    pub last_reply_at: i64,
    pub last_from: Option<String>,
    pub excerpt: String,
    pub replies: i64,
    pub unread: bool,
    pub done: bool,
    pub label: Option<Label>,
    pub sentiment: Option<Sentiment>,
    pub action: Option<Action>,
    /// The escalation topics of the latest reply, a JSON list.
    pub escalations: Option<String>,
    /// An answer in the thread waits for the user's approval.
    pub awaiting: bool,
}

/// A message the user's side sent (or will send) in a thread.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SentInThread {
    pub id: i64,
    pub kind: MessageKind,
    pub step: i32,
    pub subject: String,
    pub html_body: Option<String>,
    pub status: MessageStatus,
    pub error: Option<String>,
    pub to_email: String,
    pub sent_at: Option<i64>,
    pub created_at: i64,
}

/// A reply (or an automatic answer) in a thread, with the AI's reading and the answer drafted to it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReceivedInThread {
    pub id: i64,
    /// `reply` or `auto_reply`.
    pub kind: String,
    pub from_email: Option<String>,
    pub subject: String,
    pub body: String,
    pub received_at: i64,
    /// The message it answers.
    pub message_id: Option<i64>,
    pub sentiment: Option<Sentiment>,
    pub action: Option<Action>,
    pub confidence: Option<f64>,
    pub language: Option<String>,
    pub summary: Option<String>,
    pub escalations: Option<String>,
    pub answer_id: Option<i64>,
    pub answer_subject: Option<String>,
    pub answer_body: Option<String>,
    pub answer_status: Option<String>,
    pub answer_why: Option<String>,
    pub answer_automatic: Option<bool>,
}

impl InboxStore<'_> {
    /// A page of the user's threads, the latest reply first (`limit` rows at most).
    pub async fn list_threads(
        &self,
        user_id: i64,
        query: &ThreadQuery,
        limit: i64,
    ) -> StoreResult<Vec<ThreadRow>> {
        let pattern = query.search.as_deref().map(like_pattern);
        if pattern.is_none() {
            return self.list_page(user_id, query, None, None, limit).await;
        }
        // A search reads the newest threads in order first: when a page of matches is among them, it is the page (any
        // older match comes after it). Else it collects every match through the search indexes.
        let recent = self
            .list_page(
                user_id,
                query,
                pattern.as_deref(),
                Some(SEARCH_RECENT),
                limit,
            )
            .await?;
        if recent.len() as i64 >= limit {
            return Ok(recent);
        }
        self.list_page(user_id, query, pattern.as_deref(), None, limit)
            .await
    }

    /// One run of `inbox/list`: `recent` reads only that many of the newest threads (see `list_threads`).
    async fn list_page(
        &self,
        user_id: i64,
        query: &ThreadQuery,
        pattern: Option<&str>,
        recent: Option<i64>,
        limit: i64,
    ) -> StoreResult<Vec<ThreadRow>> {
        let sql = INBOX_LIST.sql(self);
        let (at, id) = query.after.unwrap_or((i64::MAX, i64::MAX));
        // Planned for its values every time (not kept prepared): PostgreSQL's generic plan cannot drop the unset
        // filters' `is null or` conditions, misjudges them as selective, and sorts every thread of the user instead of
        // reading the list's index in order (103 ms against 0.5 ms for 20,000 threads, planning included ~3 ms).
        on_db!(self, pool => sqlx::query_as(sql).persistent(false).bind(user_id).bind(at).bind(id).bind(query.done)
            .bind(query.only.map(|only| only.as_str())).bind(query.campaign_id).bind(query.sender_id)
            .bind(query.label.map(Label::as_str)).bind(pattern).bind(limit).bind(recent).fetch_all(pool).await)
    }

    /// One of the user's threads.
    pub async fn find_thread(&self, id: i64, user_id: i64) -> StoreResult<Option<ThreadRow>> {
        let sql = INBOX_ONE.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The messages sent in a thread, oldest first.
    pub async fn sent_in_thread(&self, thread: &ThreadRow) -> StoreResult<Vec<SentInThread>> {
        let sql = INBOX_SENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(thread.campaign_id).bind(thread.business_id)
            .bind(thread.root_message_id).fetch_all(pool).await)
    }

    /// The replies filed in a thread, oldest first.
    pub async fn received_in_thread(&self, thread_id: i64) -> StoreResult<Vec<ReceivedInThread>> {
        let sql = INBOX_RECEIVED.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(thread_id).fetch_all(pool).await)
    }

    /// The Message-ID of the thread's latest reply.
    pub async fn last_reply_message_id(&self, thread_id: i64) -> StoreResult<Option<String>> {
        let sql = INBOX_LAST_REPLY.sql(self);
        let found: Option<Option<String>> = on_db!(self, pool => sqlx::query_scalar(sql).bind(thread_id)
            .fetch_optional(pool).await)?;
        Ok(found.flatten())
    }

    /// Sets what the user marks on a thread; whether it is theirs.
    pub async fn set_thread_state(
        &self,
        id: i64,
        user_id: i64,
        unread: bool,
        done: bool,
        label: Option<Label>,
    ) -> StoreResult<bool> {
        let sql = INBOX_STATE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(unread).bind(done)
            .bind(label.map(Label::as_str)).execute(pool).await.map(|done| done.rows_affected() == 1))
    }
}

/// A search text as a LIKE pattern that matches it anywhere, lowercase, its own `%`, `_` and `\` taken literally.
fn like_pattern(text: &str) -> String {
    let mut pattern = String::from("%");
    for character in text.trim().to_lowercase().chars() {
        if matches!(character, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(character);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::like_pattern;

    #[test]
    fn a_search_matches_its_wildcards_literally() {
        assert_eq!(like_pattern(" 50%_Off\\ "), "%50\\%\\_off\\\\%");
        assert_eq!(like_pattern("Café"), "%café%");
    }
}
