//! What comes back about sent messages, applied to them (B §3 Sent email, §4): deliveries, opens and clicks reported
//! by a provider, hard and soft bounces, spam reports, unsubscribes and replies move a message's state and stamp its times (the first time counts), each
//! is kept as an event, and the consequences follow: a reply stops that prospect's queued follow-ups, a hard bounce
//! or spam report suppresses the address for the user, and a campaign whose last 200 sends show 5% hard bounces or
//! 0.3% spam reports pauses itself with the reason.

use crate::campaigns::CampaignStatus;
use crate::inbound::InboundStore;
use crate::platform::db::{StoreResult, Tx};
use crate::platform::queries::*;
use crate::platform::telemetry::{self, PauseReason};
use crate::sending::messages::MessageStatus;
use crate::sending::suppression;
use crate::{on_db, on_tx};

/// A sent message, as events find it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SentRef {
    pub id: i64,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub business_id: Option<i64>,
    /// The sender it went from (its health reads its bounces and complaints).
    pub config_id: Option<i64>,
    pub to_email: String,
    pub token: Option<String>,
    pub status: MessageStatus,
}

/// What happened to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Delivered,
    Opened,
    /// The link that was followed.
    Clicked(String),
    /// A permanent failure suppresses the address; a temporary one is only recorded.
    Bounced {
        hard: bool,
        reason: String,
    },
    Spam,
    Unsubscribed,
    Replied,
}

/// A campaign pauses when its last sends show this share of hard bounces or spam reports.
pub const BOUNCE_PAUSE_RATE: f64 = 0.05;
pub const SPAM_PAUSE_RATE: f64 = 0.003;
/// Below this many sends a rate says little (one early bounce is not 5% of a campaign).
pub const HEALTH_MIN_SENDS: i64 = 20;

/// Mail received for a user, to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInbound<'a> {
    pub user_id: i64,
    pub message_id: Option<i64>,
    /// `reply`, `auto_reply` or `bounce`.
    pub kind: &'a str,
    pub from_email: Option<&'a str>,
    pub subject: &'a str,
    pub body: &'a str,
    pub detail: Option<&'a str>,
    /// Where it came from: `sendgrid-inbound`, `imap`, `gmail`, `outbox`.
    pub source: &'a str,
    /// Its own Message-ID.
    pub header_message_id: Option<&'a str>,
    /// A prospect's reply or automatic answer to a campaign message is filed in the inbox thread of that message.
    pub threaded: bool,
}

impl InboundStore<'_> {
    /// The sent message with this Message-ID (angle brackets optional). Its local part is the message's token
    /// (`sending::compose`), which the lookup goes by.
    pub async fn find_sent_by_message_id(&self, message_id: &str) -> StoreResult<Option<SentRef>> {
        let sql = FEEDBACK_FIND_BY_MESSAGE_ID.sql(self);
        let id = message_id.trim().trim_matches(['<', '>']);
        let Some((token, _)) = id.rsplit_once('@') else {
            return Ok(None);
        };
        on_db!(self, pool => sqlx::query_as(sql).bind(token).bind(id).fetch_optional(pool).await)
    }

    /// The user's latest sent message to `email` (normalised).
    pub async fn latest_sent_to(&self, user_id: i64, email: &str) -> StoreResult<Option<SentRef>> {
        let sql = FEEDBACK_LATEST_TO.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(email).fetch_optional(pool).await)
    }

    /// One of the user's outbox messages that went out (a reply can be typed for it in the app).
    pub async fn find_outbox_sent(&self, id: i64, user_id: i64) -> StoreResult<Option<SentRef>> {
        let sql = FEEDBACK_OUTBOX_SENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    /// The owner of the sender that uses `address`.
    pub async fn sender_owner(&self, address: &str) -> StoreResult<Option<i64>> {
        let sql = FEEDBACK_SENDER_OWNER.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(address).fetch_optional(pool).await)
    }

    /// Applies what happened to a message, its event and its consequences. Returns the campaign's pause reason
    /// when this outcome paused it.
    pub async fn apply_outcome(
        &self,
        message: &SentRef,
        outcome: &Outcome,
        at: i64,
    ) -> StoreResult<Option<String>> {
        let token = message.token.clone().unwrap_or_default();
        let (update, kind, detail): (Option<&str>, &str, Option<&str>) = match outcome {
            Outcome::Delivered => (Some(FEEDBACK_DELIVERED.sql(self)), "delivered", None),
            Outcome::Opened => (Some(FEEDBACK_OPENED.sql(self)), "open", None),
            Outcome::Clicked(url) => (
                Some(FEEDBACK_CLICKED.sql(self)),
                "click",
                Some(url.as_str()),
            ),
            Outcome::Bounced { hard: true, reason } => (
                Some(FEEDBACK_BOUNCED.sql(self)),
                "bounce",
                Some(reason.as_str()),
            ),
            Outcome::Bounced {
                hard: false,
                reason,
            } => (None, "bounce", Some(reason.as_str())),
            Outcome::Spam => (Some(FEEDBACK_SPAM.sql(self)), "spam", None),
            Outcome::Unsubscribed => (Some(FEEDBACK_UNSUBSCRIBED.sql(self)), "unsubscribe", None),
            Outcome::Replied => (Some(FEEDBACK_REPLIED.sql(self)), "reply", None),
        };
        telemetry::email_outcome(match outcome {
            Outcome::Bounced { hard: true, .. } => "hard_bounce",
            Outcome::Bounced { hard: false, .. } => "soft_bounce",
            _ => kind,
        });
        let event = FEEDBACK_EVENT.sql(self);
        let email = crate::accounts::normalize_email(&message.to_email);
        let mut tx = self.begin_write().await?;
        if let Some(update) = update {
            on_tx!(&mut tx, conn => {
                let query = sqlx::query(update).bind(message.id).bind(at);
                let query = if matches!(outcome, Outcome::Bounced { .. }) { query.bind(detail) } else { query };
                query.execute(conn).await.map(drop)
            })?;
        }
        on_tx!(&mut tx, conn => sqlx::query(event).bind(&token).bind(kind).bind(detail).bind(at).execute(conn)
            .await.map(drop))?;
        match outcome {
            Outcome::Bounced { hard: true, .. } | Outcome::Spam => {
                let reason = if matches!(outcome, Outcome::Spam) {
                    "spam"
                } else {
                    "bounce"
                };
                let sql = tx.sql(&FEEDBACK_SUPPRESS);
                on_tx!(&mut tx, conn => sqlx::query(sql).bind(message.user_id).bind(&email).bind(reason).bind(at)
                    .execute(conn).await.map(drop))?;
            }
            Outcome::Unsubscribed => {
                suppression::suppress(&mut tx, &email, "provider", at).await?;
            }
            Outcome::Replied => {
                if let (Some(campaign_id), Some(business_id)) =
                    (message.campaign_id, message.business_id)
                {
                    // PostgreSQL: locked before the skip reads their claims (see outgoing/stop.sql).
                    if matches!(tx, Tx::Postgres(_)) {
                        let lock = tx.sql(&FEEDBACK_LOCK_FOLLOW_UPS);
                        on_tx!(&mut tx, conn => sqlx::query(lock).bind(campaign_id).bind(business_id)
                            .execute(conn).await.map(drop))?;
                    }
                    let sql = tx.sql(&FEEDBACK_STOP_FOLLOW_UPS);
                    on_tx!(&mut tx, conn => sqlx::query(sql).bind(campaign_id).bind(business_id).execute(conn)
                        .await.map(drop))?;
                }
            }
            _ => {}
        }
        tx.commit().await?;
        if let (Outcome::Bounced { hard: true, .. } | Outcome::Spam, Some(config_id)) =
            (outcome, message.config_id)
        {
            self.sending().check_sender_feedback(config_id, at).await?;
        }
        match (outcome, message.campaign_id) {
            (Outcome::Bounced { hard: true, .. } | Outcome::Spam, Some(campaign_id)) => {
                self.pause_if_unhealthy(campaign_id, at).await
            }
            _ => Ok(None),
        }
    }

    /// Pauses a campaign whose recent sends bounce or draw complaints too often; returns the reason.
    async fn pause_if_unhealthy(&self, campaign_id: i64, at: i64) -> StoreResult<Option<String>> {
        let sql = FEEDBACK_HEALTH.sql(self);
        let (sends, bounced, spam): (i64, i64, i64) =
            on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_one(pool).await)?;
        if sends < HEALTH_MIN_SENDS {
            return Ok(None);
        }
        let (bounce_rate, spam_rate) = (bounced as f64 / sends as f64, spam as f64 / sends as f64);
        let (why, reason) = if bounce_rate >= BOUNCE_PAUSE_RATE {
            (
                PauseReason::Bounces,
                format!(
                    "Paused: {bounced} of the last {sends} emails bounced ({:.1}%). Check the addresses before resuming.",
                    bounce_rate * 100.0
                ),
            )
        } else if spam_rate >= SPAM_PAUSE_RATE {
            (
                PauseReason::Complaints,
                format!(
                    "Paused: {spam} of the last {sends} emails were reported as spam ({:.1}%). Review the message before resuming.",
                    spam_rate * 100.0
                ),
            )
        } else {
            return Ok(None);
        };
        self.campaigns()
            .set_campaign_status(campaign_id, CampaignStatus::Paused, Some(&reason), at)
            .await?;
        telemetry::campaign_paused(why);
        Ok(Some(reason))
    }

    /// Keeps mail received for a user; returns its id.
    /// Keeps the mail, filed in its inbox thread (the thread's row is written in the same transaction, so a reply
    /// is never kept outside its thread).
    pub async fn insert_inbound(&self, inbound: &NewInbound<'_>, at: i64) -> StoreResult<i64> {
        let from = inbound.from_email.map(str::to_ascii_lowercase);
        let mut tx = self.begin_write().await?;
        let thread: Option<i64> = match inbound.message_id.filter(|_| inbound.threaded) {
            Some(message_id) => {
                let sql = tx.sql(&INBOX_FILE);
                let excerpt = excerpt(inbound.body);
                on_tx!(&mut tx, conn => sqlx::query_scalar(sql).bind(message_id).bind(at).bind(from.as_deref())
                    .bind(&excerpt).fetch_optional(conn).await)?
            }
            None => None,
        };
        let sql = tx.sql(&FEEDBACK_INBOUND);
        let id: i64 = on_tx!(&mut tx, conn => sqlx::query_scalar(sql).bind(inbound.user_id).bind(inbound.message_id)
            .bind(inbound.kind).bind(from.as_deref()).bind(inbound.subject).bind(inbound.body).bind(inbound.detail)
            .bind(inbound.source).bind(at).bind(inbound.header_message_id).bind(thread).fetch_one(conn).await)?;
        if let Some(thread) = thread {
            let sql = tx.sql(&INBOX_FILED);
            on_tx!(&mut tx, conn => sqlx::query(sql).bind(thread).bind(id).execute(conn).await.map(drop))?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Records a webhook request's signed payload (`sendgrid_webhook::payload_hash`); false when it was seen before
    /// (a replay).
    pub async fn first_receipt(
        &self,
        payload_hash: &str,
        at: i64,
        forget_before: i64,
    ) -> StoreResult<bool> {
        let (insert, forget) = (
            FEEDBACK_RECEIPT.sql(self),
            FEEDBACK_FORGET_RECEIPTS.sql(self),
        );
        on_db!(self, pool => {
            let fresh = sqlx::query(insert).bind(payload_hash).bind(at).execute(pool).await?.rows_affected() > 0;
            sqlx::query(forget).bind(forget_before).execute(pool).await?;
            Ok(fresh)
        })
    }

    /// Lets a request's payload be accepted again (its events could not be applied; SendGrid will retry).
    pub async fn forget_receipt(&self, payload_hash: &str) -> StoreResult<()> {
        let sql = FEEDBACK_FORGET_RECEIPT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(payload_hash).execute(pool).await.map(|_| ()))
    }
}

/// The first words of a reply's own text (quoted mail left out), as the inbox lists it.
fn excerpt(body: &str) -> String {
    let own = crate::responses::text::own_text(body);
    let words = own.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", words[..cut].trim_end()),
        None => words,
    }
}

/// How much of a reply the inbox list shows.
const EXCERPT_CHARS: usize = 160;
