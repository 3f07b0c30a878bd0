//! Outgoing messages as stored. A message row is written (queued) before
//! any provider is called, one per (campaign, business, step); the worker claims it (sending) only while the
//! monthly quota and the sender's daily cap have room, then marks it sent or failed. Claims serialise per user, so
//! the limits hold across any number of workers, and a claimed row is never claimed again. A claim is a row of
//! `send_claims` (the message's own row stays queued): a message is in sending exactly while it has one, and every
//! way out of sending deletes it in the same transaction as the message's change (`drop_claims!`).

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::platform::clock::DAY_MS;
use crate::platform::db::BeginWrite;
use crate::platform::db::{Db, StoreResult, column, fetch_json_rows, json_list};
use crate::platform::queries::*;
use crate::sending::SendingStore;
use crate::sending::handover::HandOver;
use crate::sending::senders::Provider;
use crate::{on_db, on_hand_overs, on_writer};

crate::text_enum! {
    /// Where a message is in its life: written `queued`, claimed `sending`, then `sent` (and later what tracking
    /// learnt: `delivered`, `opened`, `replied`, `bounced`, `spam`), or `failed`/`skipped` with the reason.
    pub enum MessageStatus ("message status") {
        Queued = "queued",
        Sending = "sending",
        Sent = "sent",
        Delivered = "delivered",
        Opened = "opened",
        Replied = "replied",
        Failed = "failed",
        Skipped = "skipped",
        Bounced = "bounced",
        Spam = "spam",
    }
}

crate::text_enum! {
    /// What a message is to its recipient. Campaign figures count first emails and follow-ups; answers have figures
    /// of their own, and test sends count nowhere.
    #[derive(Default)]
    pub enum MessageKind ("message kind") {
        #[default]
        First = "first",
        /// Follow-up n of the campaign's sequence (its step).
        FollowUp = "follow_up",
        /// Answer n to the prospect's replies in the thread (its step).
        Answer = "answer",
        Test = "test",
    }
}

impl MessageKind {
    /// A message in a thread the campaign's first email opened: it answers under that email.
    pub fn in_thread(self) -> bool {
        matches!(self, MessageKind::FollowUp | MessageKind::Answer)
    }
}

/// Why a stop skipped a queued email (a relaunch sends it after all).
pub const STOPPED_BY_USER: &str = "Stopped by you";

/// A campaign's first email to a business: its id, and whether a stop skipped it (a relaunch sends it after all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstMessage {
    pub id: i64,
    pub stopped: bool,
}

/// A message to queue (serialised as a row of `outgoing/enqueue`); producers write theirs through `Outgoing`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NewMessage<'a> {
    pub user_id: i64,
    pub to_email: &'a str,
    /// `Queued`, or `Skipped` (with `error` saying why) for a recipient that cannot be sent to.
    pub status: MessageStatus,
    pub campaign_id: Option<i64>,
    pub template_id: Option<i64>,
    pub business_id: Option<i64>,
    pub kind: MessageKind,
    /// Its number among the thread's messages of its kind (0 for a first email, n for follow-up or answer n).
    pub step: i32,
    pub config_id: Option<i64>,
    /// A first email of a campaign with a pool: it gets its sender when it is sent (`config_id` is none until then).
    pub pooled: bool,
    pub token: &'a str,
    pub error: Option<&'a str>,
    /// A test email's own subject and body, when it has no template.
    pub subject: &'a str,
    pub html_body: Option<&'a str>,
    /// The Message-ID of the reply it answers (an answer to a prospect's reply).
    pub in_reply_to: Option<&'a str>,
    /// The A/B variant of its step it is written from (0: A, the template's own).
    pub variant: i32,
}

/// A message as the sending worker reads it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Deserialize)]
pub struct MessageRow {
    pub id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub template_id: Option<i64>,
    pub business_id: Option<i64>,
    /// Its sender; for a pooled message, the one that last claimed it (it is chosen again at each claim).
    pub config_id: Option<i64>,
    /// It gets its sender from its campaign's pool when it is sent.
    #[serde(default)]
    pub pooled: bool,
    pub to_email: String,
    pub status: MessageStatus,
    pub token: Option<String>,
    pub kind: MessageKind,
    pub step: i32,
    pub subject: String,
    pub html_body: Option<String>,
    /// The reply this message answers (an answer to a prospect's reply).
    pub in_reply_to: Option<String>,
    /// The A/B variant of its step it is written from (0: A, the template's own).
    #[serde(default)]
    #[sqlx(default)]
    pub variant: i32,
}

/// What a provider accepted, for the message row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivered<'a> {
    pub id: i64,
    pub subject: &'a str,
    pub html: &'a str,
    pub text: Option<&'a str>,
    pub message_id: &'a str,
    pub provider: Provider,
}

/// A message a gone worker left in sending, and how far it got.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Interrupted {
    pub id: i64,
    /// None for a claim made before leases.
    pub claimed_by: Option<String>,
    /// The connection its content went out on, when it was handed over.
    pub handed_by: Option<String>,
    pub handed_seq: Option<i64>,
}

/// What a batch claim took: the ids now sending, in batch order, whether the limits left no room for more, and
/// whether the limit reached was the user's monthly quota (else the sender's daily cap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchClaim {
    pub claimed: Vec<i64>,
    pub no_room: bool,
    pub quota_reached: bool,
}

/// Limits a claim checks: the user's monthly quota over the last 30 days (today and the 29 days before, as UTC
/// days) and the sender's daily cap (today, UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub monthly_limit: i64,
    pub daily_cap: i64,
}

/// One sender's part of a claim: its messages, in order, and its cap today (a claim through no sender, the outbox,
/// has the user's quota only).
#[derive(Debug, Clone, Copy)]
pub struct Share<'a> {
    pub config_id: Option<i64>,
    pub ids: &'a [i64],
    pub daily_cap: i64,
}

/// Days in the monthly quota's window.
const QUOTA_DAYS: i64 = 30;

/// In the transaction `$tx` (after the statement that changed the messages, whose rows it locked first, in the
/// order a claim takes them), deletes the claims of the messages `$ids`: a `(message, claimed_at)` for each claim
/// deleted. Only the transaction that deletes a message's claim took it out of sending.
macro_rules! drop_claims {
    ($store:expr, $tx:expr, $ids:expr) => {
        sqlx::query_as::<_, (i64, i64)>(OUTGOING_DROP_CLAIMS.sql($store))
            .bind(json_list($ids))
            .fetch_all(&mut *$tx)
    };
}

/// One message out of sending: in one transaction on `$pool`, the query `$change` of the message `$id` (which
/// returns a row when it changed it) and the deletion of its claim. Rolled back, as `None`, unless both found it
/// (another process took it out of sending first); else the row and when the claim was taken.
macro_rules! leave_sending {
    ($store:expr, $pool:expr, $id:expr, $change:expr) => {{
        let mut tx = $pool.begin_write().await?;
        let row = $change.fetch_optional(&mut *tx).await?;
        let claim = drop_claims!($store, tx, &[$id]).await?.into_iter().next();
        match (row, claim) {
            (Some(row), Some((_, claimed_at))) => {
                tx.commit().await?;
                Some((row, claimed_at))
            }
            _ => {
                tx.rollback().await?;
                None
            }
        }
    }};
}

/// A message's claim on the day counters: its user, its sender and when it was claimed.
type Claim = (i64, Option<i64>, Option<i64>);

/// A message's campaign, user and sender.
type CampaignMessage = (Option<i64>, i64, Option<i64>);

/// A claimed message its batch released: its id, user, sender and where it went (queued or failed).
type ReleasedRow = (i64, i64, Option<i64>, MessageStatus);

impl SendingStore<'_> {
    /// Messages waiting to be sent, queued before `before`, of active campaigns or of none: (id, campaign).
    pub async fn waiting_messages(&self, before: i64) -> StoreResult<Vec<(i64, Option<i64>)>> {
        let sql = OUTGOING_WAITING.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(before).fetch_all(pool).await)
    }

    /// Queues messages in one statement; returns the ids of the rows added, in order (a recipient already queued
    /// for the same campaign, kind and step adds none).
    pub async fn enqueue_messages(
        &self,
        messages: &[NewMessage<'_>],
        now: i64,
    ) -> StoreResult<Vec<i64>> {
        if messages.is_empty() {
            return Ok(Vec::new());
        }
        let sql = OUTGOING_ENQUEUE.sql(self);
        let mut ids: Vec<i64> = match &**self {
            // Arrays: PostgreSQL would parse a JSON document of the rows first.
            Db::Postgres(pool) => {
                sqlx::query_scalar(sql)
                    .bind(column(messages, |m| m.user_id))
                    .bind(column(messages, |m| m.to_email))
                    .bind(column(messages, |m| m.subject))
                    .bind(column(messages, |m| m.status.as_str()))
                    .bind(column(messages, |m| m.campaign_id))
                    .bind(column(messages, |m| m.template_id))
                    .bind(column(messages, |m| m.business_id))
                    .bind(column(messages, |m| m.kind.as_str()))
                    .bind(column(messages, |m| m.step))
                    .bind(column(messages, |m| m.config_id))
                    .bind(column(messages, |m| m.pooled))
                    .bind(column(messages, |m| m.token))
                    .bind(column(messages, |m| m.error))
                    .bind(column(messages, |m| m.html_body))
                    .bind(column(messages, |m| m.in_reply_to))
                    .bind(column(messages, |m| m.variant))
                    .bind(now)
                    .fetch_all(pool)
                    .await?
            }
            Db::Sqlite { writer: pool, .. } => {
                let rows = serde_json::to_string(messages).expect("plain values serialise");
                sqlx::query_scalar(sql)
                    .bind(rows)
                    .bind(now)
                    .fetch_all(pool)
                    .await?
            }
        };
        // Rows are written in the order given, so their ids rise with it.
        ids.sort_unstable();
        Ok(ids)
    }

    pub async fn load_message(&self, id: i64) -> StoreResult<Option<MessageRow>> {
        let sql = OUTGOING_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// The messages of a batch, in the order of `ids` (ids not found are left out).
    pub async fn load_messages(&self, ids: &[i64]) -> StoreResult<Vec<MessageRow>> {
        let sql = OUTGOING_LOAD_BATCH.sql(self);
        let list = json_list(ids);
        let mut rows: Vec<MessageRow> = match &**self {
            Db::Postgres(pool) => sqlx::query_as(sql).bind(&list).fetch_all(pool).await?,
            Db::Sqlite { readers, .. } => {
                fetch_json_rows(sqlx::query_scalar(sql).bind(&list), readers).await?
            }
        };
        let position: HashMap<i64, usize> =
            ids.iter().enumerate().map(|(at, id)| (*id, at)).collect();
        rows.sort_by_key(|row| position.get(&row.id).copied());
        Ok(rows)
    }

    /// Claims the still queued messages among `ids` (one user's, through one sender) as far as the limits have
    /// room: the user's counter (last 30 days) and the sender's (today) are taken and the messages' claims written
    /// in one transaction, under the claiming worker's `lease`. Earlier ids are claimed first.
    pub async fn claim_messages(
        &self,
        user_id: i64,
        config_id: Option<i64>,
        ids: &[i64],
        limits: Limits,
        lease: &str,
        now: i64,
    ) -> StoreResult<BatchClaim> {
        let share = Share {
            config_id,
            ids,
            daily_cap: limits.daily_cap,
        };
        let mut claims = self
            .claim(user_id, &[share], limits.monthly_limit, (lease, now), false)
            .await?;
        Ok(claims.remove(0))
    }

    /// Claims a pool's messages (issue 79) as [`Self::claim_messages`] does, each share under its sender's room and
    /// all of them under the user's quota, in one transaction that also gives each claimed message its sender (the
    /// mailbox its thread then stays on). One claim per share, in order.
    pub async fn claim_for_senders(
        &self,
        user_id: i64,
        shares: &[Share<'_>],
        monthly_limit: i64,
        lease: &str,
        now: i64,
    ) -> StoreResult<Vec<BatchClaim>> {
        self.claim(user_id, shares, monthly_limit, (lease, now), true)
            .await
    }

    async fn claim(
        &self,
        user_id: i64,
        shares: &[Share<'_>],
        monthly_limit: i64,
        (lease, now): (&str, i64),
        assign: bool,
    ) -> StoreResult<Vec<BatchClaim>> {
        let (lock, claim, room, add, give) = (
            USER_LOCK.sql(self),
            OUTGOING_CLAIM_BATCH.sql(self),
            COUNTER_ROOM.sql(self),
            COUNTER_ADD.sql(self),
            OUTGOING_ASSIGN.sql(self),
        );
        let day = now.div_euclid(DAY_MS);
        let every: Vec<i64> = shares
            .iter()
            .flat_map(|share| share.ids.iter().copied())
            .collect();
        let list = json_list(&every);
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            // SQLite: the claim is the transaction's first statement and a write, so it never has to upgrade from a
            // read lock.
            let taken: HashSet<i64> = sqlx::query_scalar(claim).bind(&list).bind(now).bind(lease)
                .fetch_all(&mut *tx).await?.into_iter().collect();
            // PostgreSQL: one user's claims count their room one at a time, each after the last one's counters
            // are committed (read committed: the room below is read after the lock is taken). Taken after the
            // claim's own update, which needs no lock of the user's and was most of the time a claim held it: the
            // other batches of the user waited 71 ms a claim for it (docs/benchmarks.md, Sending).
            if matches!(&**self, Db::Postgres(_)) {
                sqlx::query(lock).bind(user_id).execute(&mut *tx).await?;
            }
            let user_used: i64 = sqlx::query_scalar(room).bind("user").bind(user_id).bind(day).bind(QUOTA_DAYS)
                .fetch_one(&mut *tx).await?;
            let mut quota_room = (monthly_limit - user_used).max(0);
            let (mut claims, mut over_all, mut counted) = (Vec::with_capacity(shares.len()), Vec::new(), 0i64);
            for share in shares {
                let mut claimed: Vec<i64> = share.ids.iter().copied().filter(|id| taken.contains(id)).collect();
                let mut allowed = quota_room;
                if let Some(config_id) = share.config_id {
                    let sender_used: i64 = sqlx::query_scalar(room).bind("config").bind(config_id).bind(day)
                        .bind(1i64).fetch_one(&mut *tx).await?;
                    allowed = allowed.min((share.daily_cap - sender_used).max(0));
                }
                let allowed = usize::try_from(allowed).unwrap_or(0).min(claimed.len());
                let over = claimed.split_off(allowed);
                let quota_reached = !over.is_empty() && usize::try_from(quota_room).unwrap_or(0) == allowed;
                quota_room -= claimed.len() as i64;
                if let (Some(config_id), false) = (share.config_id, claimed.is_empty()) {
                    let count = claimed.len() as i64;
                    sqlx::query(add).bind("config").bind(config_id).bind(day).bind(count).execute(&mut *tx).await?;
                    if assign {
                        sqlx::query(give).bind(config_id).bind(json_list(&claimed)).execute(&mut *tx).await?;
                    }
                }
                counted += claimed.len() as i64;
                over_all.extend_from_slice(&over);
                claims.push(BatchClaim { claimed, no_room: !over.is_empty(), quota_reached });
            }
            if !over_all.is_empty() {
                drop_claims!(self, tx, &over_all).await?;
            }
            if counted > 0 {
                sqlx::query(add).bind("user").bind(user_id).bind(day).bind(counted).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(claims)
        })
    }

    /// Which of these normalised addresses are suppressed.
    pub async fn suppressed_among(&self, emails: &[String]) -> StoreResult<HashSet<String>> {
        let sql = UNSUBSCRIBE_AMONG.sql(self);
        let list = json_list(emails);
        let found: Vec<String> =
            on_db!(self, pool => sqlx::query_scalar(sql).bind(&list).fetch_all(pool).await)?;
        Ok(found.into_iter().collect())
    }

    /// Marks a batch's accepted messages sent and deletes their claims in one transaction (on PostgreSQL one
    /// statement), and forgets their hand-overs.
    pub async fn mark_sent_batch<'a>(&self, sent: &[Delivered<'a>], now: i64) -> StoreResult<()> {
        if sent.is_empty() {
            return Ok(());
        }
        let sql = OUTGOING_SENT_BATCH.sql(self);
        match &**self {
            // Arrays: PostgreSQL would parse a JSON document of the bodies into JSONB first.
            Db::Postgres(pool) => {
                sqlx::query(sql)
                    .bind(column(sent, |row| row.id))
                    .bind(column(sent, |row| row.subject))
                    .bind(column(sent, |row| row.html))
                    .bind(column(sent, |row| row.text))
                    .bind(column(sent, |row| row.message_id))
                    .bind(column(sent, |row| row.provider.as_str()))
                    .bind(now)
                    .execute(pool)
                    .await?;
            }
            Db::Sqlite { writer: pool, .. } => {
                let rows = serde_json::to_string(sent).expect("plain values serialise");
                let mut tx = pool.begin_write().await?;
                let marked: Vec<i64> = sqlx::query_scalar(sql)
                    .bind(rows)
                    .bind(now)
                    .fetch_all(&mut *tx)
                    .await?;
                drop_claims!(self, tx, &marked).await?;
                tx.commit().await?;
            }
        }
        // Sent: their hand-overs are done with (a crash before this leaves them to recovery's sweep).
        self.forget_hand_overs(&column(sent, |row| row.id)).await?;
        Ok(())
    }

    /// Gives a claim back to the counters of the day it was taken.
    async fn give_back(&self, claim: Option<Claim>) -> StoreResult<()> {
        let Some((user_id, config_id, Some(claimed_at))) = claim else {
            return Ok(());
        };
        let sql = COUNTER_GIVE_BACK.sql(self);
        let day = claimed_at.div_euclid(DAY_MS);
        let scopes = [("user", Some(user_id)), ("config", config_id)];
        for (scope, id) in scopes {
            if let Some(id) = id {
                on_writer!(self, pool => sqlx::query(sql).bind(scope).bind(id).bind(day).execute(pool).await.map(|_| ()))?;
            }
        }
        Ok(())
    }

    /// `failed` or `skipped`, with the reason.
    pub async fn mark_unsent(
        &self,
        id: i64,
        status: MessageStatus,
        reason: &str,
        provider: Option<Provider>,
    ) -> StoreResult<()> {
        let sql = OUTGOING_FAILED.sql(self);
        let claim: Option<Claim> = on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            let row: Option<(i64, Option<i64>)> = sqlx::query_as(sql).bind(id).bind(status).bind(reason)
                .bind(provider).fetch_optional(&mut *tx).await?;
            // Unsent whether it was claimed or not; a claim deleted is given back.
            let claims = match row {
                Some(_) => drop_claims!(self, tx, &[id]).await?,
                None => Vec::new(),
            };
            tx.commit().await?;
            row.map(|(user_id, config_id)| (user_id, config_id, claims.first().map(|claim| claim.1)))
        });
        // A claimed one may have a hand-over on record.
        if matches!(claim, Some((_, _, Some(_)))) {
            self.forget_hand_overs(&[id]).await?;
        }
        self.give_back(claim).await
    }

    pub async fn requeue_message(&self, id: i64, reason: &str) -> StoreResult<()> {
        // Before it is queued: a hand-over left on record would read as this message's once it is claimed again.
        self.forget_hand_overs(&[id]).await?;
        let sql = OUTGOING_REQUEUE.sql(self);
        let left: Option<((i64, Option<i64>), i64)> = on_writer!(self, pool =>
            leave_sending!(self, pool, id, sqlx::query_as(sql).bind(id).bind(reason)));
        self.give_back(
            left.map(|((user_id, config_id), claimed_at)| (user_id, config_id, Some(claimed_at))),
        )
        .await
    }

    /// The messages left in sending by a worker whose lease expired before `now` (or, claimed before leases,
    /// before `before`), with how far each got.
    pub async fn interrupted_sends(&self, before: i64, now: i64) -> StoreResult<Vec<Interrupted>> {
        let sql = OUTGOING_INTERRUPTED.sql(self);
        on_hand_overs!(self, pool => sqlx::query_as(sql).bind(before).bind(now).fetch_all(pool).await)
    }

    /// Before their content goes: these messages are handed over (one statement; see `handover::HandOverLog`).
    pub async fn hand_over(&self, hand_overs: &[HandOver]) -> StoreResult<()> {
        let sql = OUTGOING_HAND.sql(self);
        let rows = serde_json::to_string(hand_overs).expect("plain values serialise");
        on_hand_overs!(self, pool => sqlx::query(sql).bind(rows).execute(pool).await.map(drop))
    }

    /// These messages' hand-overs are no longer current: they left sending, or are about to go back to the queue.
    /// Every way out of sending here forgets its hand-over; what a crash between the two writes leaves, and the
    /// hand-overs of deleted messages, go with `sweep_hand_overs`.
    pub async fn forget_hand_overs(&self, ids: &[i64]) -> StoreResult<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let sql = OUTGOING_FORGET_HAND_OVERS.sql(self);
        on_hand_overs!(self, pool => sqlx::query(sql).bind(json_list(ids)).execute(pool).await.map(drop))
    }

    /// Deletes the claims no way out of sending will come for: their message was deleted, or a provider's report
    /// moved it on before its sent mark (`outgoing/sweep_claims`).
    pub async fn sweep_claims(&self) -> StoreResult<u64> {
        let sql = OUTGOING_SWEEP_CLAIMS.sql(self);
        on_writer!(self, pool => sqlx::query(sql).execute(pool).await.map(|done| done.rows_affected()))
    }

    /// Forgets the hand-overs of every message no longer in sending.
    pub async fn sweep_hand_overs(&self) -> StoreResult<u64> {
        let sql = OUTGOING_SWEEP_HAND_OVERS.sql(self);
        on_hand_overs!(self, pool => sqlx::query(sql).execute(pool).await.map(|done| done.rows_affected()))
    }

    /// The number of the next answer in a campaign's thread with a business (answers are numbered from 1, whoever
    /// wrote them: the AI or the user in the inbox).
    pub async fn next_answer_step(
        &self,
        campaign_id: i64,
        business_id: Option<i64>,
    ) -> StoreResult<i32> {
        let sql = OUTGOING_NEXT_ANSWER_STEP.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).bind(business_id).fetch_one(pool).await)
    }

    /// Claimed messages their batch did not finish: back to the queue when never handed over (their claims given
    /// back; `reason`, if any, shown as why), else failed as uncertain. How many went back.
    pub async fn release_claims(
        &self,
        ids: &[i64],
        reason: Option<&str>,
        uncertain: &str,
    ) -> StoreResult<usize> {
        if ids.is_empty() {
            return Ok(0);
        }
        let (release, give_back) = (
            OUTGOING_RELEASE_BATCH.sql(self),
            COUNTER_GIVE_BACK_MANY.sql(self),
        );
        let list = json_list(ids);
        // Where the hand-overs are read (on SQLite, their file's connection), with the claims' deletion.
        let (rows, claims): (Vec<ReleasedRow>, Vec<(i64, i64)>) = on_hand_overs!(self, pool => {
            let mut tx = pool.begin_write().await?;
            let rows = sqlx::query_as(release).bind(&list).bind(reason).bind(uncertain)
                .fetch_all(&mut *tx).await?;
            let claims = drop_claims!(self, tx, ids).await?;
            tx.commit().await?;
            (rows, claims)
        });
        self.forget_hand_overs(ids).await?;
        // Each scope's day gives back what the claims of the messages back in the queue counted there.
        let claimed_at: HashMap<i64, i64> = claims.into_iter().collect();
        let mut counted: HashMap<(&str, i64, i64), i64> = HashMap::new();
        let mut requeued = 0;
        for (id, user_id, config_id, status) in &rows {
            let (MessageStatus::Queued, Some(claimed_at)) = (status, claimed_at.get(id)) else {
                continue;
            };
            requeued += 1;
            let day = claimed_at.div_euclid(DAY_MS);
            *counted.entry(("user", *user_id, day)).or_default() += 1;
            if let Some(config_id) = config_id {
                *counted.entry(("config", *config_id, day)).or_default() += 1;
            }
        }
        if !counted.is_empty() {
            on_writer!(self, pool => {
                let mut tx = pool.begin_write().await?;
                for ((scope, id, day), count) in &counted {
                    sqlx::query(give_back).bind(scope).bind(id).bind(day).bind(count).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            });
        }
        Ok(requeued)
    }

    /// Failed as uncertain (it may have arrived; never sent again, its claim kept). Its campaign, when it was sending.
    pub async fn mark_uncertain(
        &self,
        id: i64,
        reason: &str,
        provider: Option<Provider>,
    ) -> StoreResult<Option<Option<i64>>> {
        let sql = OUTGOING_UNCERTAIN.sql(self);
        let left: Option<(Option<i64>, i64)> = on_hand_overs!(self, pool =>
            leave_sending!(self, pool, id, sqlx::query_scalar(sql).bind(id).bind(reason).bind(provider)));
        self.forget_hand_overs(&[id]).await?;
        Ok(left.map(|(campaign, _)| campaign))
    }

    /// A gone worker's message that its server took: sent. Its campaign, when it was sending.
    pub async fn recover_as_sent(&self, id: i64, now: i64) -> StoreResult<Option<Option<i64>>> {
        let sql = OUTGOING_RECOVER_SENT.sql(self);
        let left: Option<(Option<i64>, i64)> = on_hand_overs!(self, pool =>
            leave_sending!(self, pool, id, sqlx::query_scalar(sql).bind(id).bind(now)));
        self.forget_hand_overs(&[id]).await?;
        Ok(left.map(|(campaign, _)| campaign))
    }

    /// A gone worker's message never handed over: back to the queue, its claim given back. Its campaign, when it
    /// went back (another process may have got there first).
    pub async fn recover_to_queue(
        &self,
        id: i64,
        reason: &str,
    ) -> StoreResult<Option<Option<i64>>> {
        let sql = OUTGOING_RECOVER_QUEUED.sql(self);
        let left: Option<(CampaignMessage, i64)> = on_hand_overs!(self, pool =>
            leave_sending!(self, pool, id, sqlx::query_as(sql).bind(id).bind(reason)));
        let Some(((campaign_id, user_id, config_id), claimed_at)) = left else {
            return Ok(None);
        };
        // An unmarked hand-over (the server refused it after its content) may be left.
        self.forget_hand_overs(&[id]).await?;
        self.give_back(Some((user_id, config_id, Some(claimed_at))))
            .await?;
        Ok(Some(campaign_id))
    }

    /// Takes or renews a worker process's lease until `until`.
    pub async fn renew_lease(&self, worker: &str, until: i64) -> StoreResult<()> {
        let sql = LEASE_RENEW.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(worker).bind(until).execute(pool).await.map(|_| ()))
    }

    /// Gives a stopping worker's lease back, and forgets leases that expired before `now`.
    pub async fn release_lease(&self, worker: &str, now: i64) -> StoreResult<()> {
        let sql = LEASE_RELEASE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(worker).bind(now).execute(pool).await.map(|_| ()))
    }

    /// The first emails of a campaign to these businesses, by business, each with whether a stop skipped it.
    pub async fn first_messages_to(
        &self,
        campaign_id: i64,
        business_ids: &[i64],
    ) -> StoreResult<HashMap<i64, FirstMessage>> {
        if business_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = AUTOMATION_FIRST_MESSAGES.sql(self);
        let list = json_list(business_ids);
        let rows: Vec<(i64, i64, bool)> = on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).bind(&list)
            .bind(STOPPED_BY_USER).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(business, id, stopped)| (business, FirstMessage { id, stopped }))
            .collect())
    }

    /// Puts the first emails a stop skipped back in the queue, for the businesses a relaunch names (ids as given),
    /// written with `template_id`; returns their ids.
    pub async fn requeue_stopped(
        &self,
        campaign_id: i64,
        business_ids: &[i64],
        template_id: i64,
    ) -> StoreResult<Vec<i64>> {
        if business_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = OUTGOING_REQUEUE_STOPPED.sql(self);
        let list = json_list(business_ids);
        on_writer!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).bind(&list)
            .bind(STOPPED_BY_USER).bind(template_id).fetch_all(pool).await)
    }
}
