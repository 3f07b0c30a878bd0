//! Mail that comes back, applied to what was sent, whichever way it arrives (SendGrid Inbound Parse, an SMTP
//! sender's IMAP mailbox, a reply typed in the outbox): the message it answers is found among its user's messages by
//! the Message-IDs it refers to (In-Reply-To, References), else as the latest message to its author (for a bounce,
//! the address that failed); the mail is kept and its outcome applied (a reply stops follow-ups, a hard bounce
//! suppresses). Reading an IMAP mailbox remembers the last UID, one message at a time; reading a Gmail mailbox (with
//! Google's read permission) remembers the mailbox history id.

use crate::Context;
use crate::inbound::InboundStore;
use crate::inbound::feedback::{NewInbound, Outcome, SentRef};
use crate::inbound::imap::ImapServer;
use crate::inbound::mail::{Inbound, Kind};
use crate::on_db;
use crate::platform::clock::DAY_MS;
use crate::platform::db::StoreResult;
use crate::platform::faults;
use crate::platform::net::Security;
use crate::platform::queries::*;
use crate::platform::security::decrypt_secret;
use crate::platform::telemetry;
use crate::sending::senders::Mark;

/// At most this many messages are read from a mailbox per run; the rest come at the next run.
pub const IMAP_BATCH: usize = 200;

/// An SMTP sender's mailbox, with where reading stopped.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ImapMailbox {
    pub id: i64,
    pub user_id: i64,
    pub imap_host: String,
    pub imap_port: Option<i32>,
    pub imap_security: Option<Security>,
    pub imap_username: Option<String>,
    pub imap_secret: String,
    pub imap_uid_validity: Option<i64>,
    pub imap_last_uid: Option<i64>,
    pub replies_checked_at: Option<i64>,
    pub send_from: String,
    pub created_at: i64,
}

/// A Gmail sender with Google's read permission, with where reading stopped.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GmailMailbox {
    pub id: i64,
    pub user_id: i64,
    pub send_from: String,
    pub secret: String,
    pub gmail_history_id: Option<String>,
    pub replies_checked_at: Option<i64>,
    pub created_at: i64,
}

/// What one run over a mailbox did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MailboxRun {
    /// Messages read.
    pub read: usize,
    /// Of them, those that answered one of the user's messages (and were kept).
    pub matched: usize,
}

impl InboundStore<'_> {
    /// The user's message an inbound mail answers.
    pub async fn message_answered(
        &self,
        user_id: i64,
        inbound: &Inbound,
    ) -> StoreResult<Option<SentRef>> {
        for id in &inbound.refers_to {
            if let Some(message) = self.find_sent_by_message_id(id).await?
                && message.user_id == user_id
            {
                return Ok(Some(message));
            }
        }
        let author = match &inbound.kind {
            Kind::Bounce {
                recipient: Some(failed),
                ..
            } => Some(failed.clone()),
            _ => inbound.from.clone(),
        };
        match author {
            Some(author) => self.latest_sent_to(user_id, &author).await,
            None => Ok(None),
        }
    }

    /// Keeps an inbound mail of a user and applies what it means to its message; returns its id.
    async fn record_inbound(
        &self,
        user_id: i64,
        message: Option<&SentRef>,
        inbound: &Inbound,
        source: &str,
        now: i64,
    ) -> StoreResult<i64> {
        let (outcome, detail) = match &inbound.kind {
            Kind::Reply => (Some(Outcome::Replied), None),
            Kind::AutoReply => (None, None),
            Kind::Bounce {
                hard,
                status,
                reason,
                ..
            } => (
                Some(Outcome::Bounced {
                    hard: *hard,
                    reason: reason.clone(),
                }),
                Some(format!("{status} {reason}").trim().to_string()),
            ),
        };
        let id = self
            .insert_inbound(
                &NewInbound {
                    user_id,
                    message_id: message.map(|message| message.id),
                    kind: inbound.kind.name(),
                    from_email: inbound.from.as_deref(),
                    subject: &inbound.subject,
                    body: &inbound.text,
                    detail: detail.as_deref(),
                    source,
                    header_message_id: inbound.message_id.as_deref(),
                    threaded: matches!(inbound.kind, Kind::Reply | Kind::AutoReply)
                        && message.is_some_and(|message| message.campaign_id.is_some()),
                },
                now,
            )
            .await?;
        if let (Some(message), Some(outcome)) = (message, outcome) {
            self.apply_outcome(message, &outcome, now).await?;
        }
        Ok(id)
    }

    /// The senders whose mailboxes are read for replies.
    pub async fn imap_mailboxes(&self) -> StoreResult<Vec<i64>> {
        let sql = REPLIES_MAILBOXES.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).fetch_all(pool).await)
    }

    pub async fn imap_mailbox(&self, config_id: i64) -> StoreResult<Option<ImapMailbox>> {
        let sql = REPLIES_MAILBOX.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(config_id).fetch_optional(pool).await)
    }

    /// Whether Google granted reading the Gmail sender `address` of the user, and the history id reading starts
    /// after.
    pub async fn set_gmail_access(
        &self,
        user_id: i64,
        address: &str,
        granted: bool,
        history_id: Option<&str>,
    ) -> StoreResult<()> {
        let sql = REPLIES_GMAIL_ACCESS.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(user_id).bind(address).bind(granted).bind(history_id)
            .execute(pool).await.map(|_| ()))
    }

    pub async fn gmail_mailbox(&self, config_id: i64) -> StoreResult<Option<GmailMailbox>> {
        let sql = REPLIES_GMAIL_MAILBOX.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(config_id).fetch_optional(pool).await)
    }

    async fn set_gmail_mark(&self, config_id: i64, history_id: &str, at: i64) -> StoreResult<()> {
        let sql = REPLIES_GMAIL_MARK.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(config_id).bind(history_id).bind(at).execute(pool)
            .await.map(|_| ()))
    }

    /// Reading this sender's mailbox got as far as `mark`.
    async fn set_imap_mark(&self, config_id: i64, mark: Mark, at: i64) -> StoreResult<()> {
        let sql = REPLIES_MARK.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(config_id).bind(i64::from(mark.uid_validity))
            .bind(i64::from(mark.last_uid)).bind(at).execute(pool).await.map(|_| ()))
    }

    async fn set_replies_checked(
        &self,
        config_id: i64,
        error: Option<&str>,
        at: i64,
    ) -> StoreResult<()> {
        let sql = REPLIES_CHECKED.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(config_id).bind(error).bind(at).execute(pool)
            .await.map(|_| ()))
    }
}

/// Reads one sender's own mailbox (IMAP, or Gmail with the read permission) for new mail and applies what answers
/// the user's messages; mail that answers none of them (the rest of a personal inbox) is neither kept nor touched.
/// Mail received for a user by any path (a mailbox, SendGrid's Inbound Parse, a reply typed in the outbox): kept,
/// applied to the message it answers, and, for a prospect's reply, read by a `ClassifyReply` job. A "reply" whose
/// words say it is an automatic answer (an out-of-office sent without the headers that say so) is kept as one.
pub async fn receive(
    ctx: &Context,
    user_id: i64,
    message: Option<&SentRef>,
    mut inbound: Inbound,
    source: &str,
) -> Result<i64, crate::platform::queue::QueueError> {
    if inbound.kind == Kind::Reply
        && crate::responses::offline::is_automatic(&inbound.subject, &inbound.text)
    {
        inbound.kind = Kind::AutoReply;
    }
    let id = ctx
        .db
        .inbound()
        .record_inbound(user_id, message, &inbound, source, ctx.now_ms())
        .await?;
    faults::point_with("reply-kept", || id.to_string());
    if inbound.kind == Kind::Reply && message.is_some() {
        queue_classification(ctx, id).await?;
    }
    Ok(id)
}

/// Mail delivered to this instance for an address (SendGrid's Inbound Parse names it in `to`): it belongs to the
/// owner of the receiving sender address, else to the owner of a message it refers to, and is received as theirs
/// (`receive`). Returns whether anyone's it was; nobody's mail is not kept.
pub async fn receive_addressed(
    ctx: &Context,
    inbound: Inbound,
    to: Option<&str>,
    source: &str,
) -> Result<bool, crate::platform::queue::QueueError> {
    let db = &ctx.db;
    let mut owner = match to.and_then(first_address) {
        Some(address) => db.inbound().sender_owner(&address).await?,
        None => None,
    };
    for id in &inbound.refers_to {
        if owner.is_some() {
            break;
        }
        owner = db
            .inbound()
            .find_sent_by_message_id(id)
            .await?
            .map(|message| message.user_id);
    }
    let Some(owner) = owner else {
        return Ok(false);
    };
    let message = db.inbound().message_answered(owner, &inbound).await?;
    receive(ctx, owner, message.as_ref(), inbound, source).await?;
    Ok(true)
}

/// The first address of a `To` value such as `"Ada" <ada@x.example>, b@y.example`.
fn first_address(to: &str) -> Option<String> {
    let first = to.split(',').next()?.trim();
    let address = match (first.rfind('<'), first.rfind('>')) {
        (Some(open), Some(close)) if open < close => &first[open + 1..close],
        _ => first,
    };
    let address = crate::accounts::normalize_email(address);
    crate::accounts::is_valid_email(&address).then_some(address)
}

/// Queues a reply's reading, once: the key is the reply's.
async fn queue_classification(
    ctx: &Context,
    inbound_id: i64,
) -> Result<bool, crate::platform::queue::QueueError> {
    let job = crate::platform::jobs::ClassifyReply { inbound_id };
    ctx.queue
        .enqueue(job, Some(&format!("classify:{inbound_id}")))
        .await
}

/// Queues the reading of every reply received before `before` that was kept and never queued for reading (its
/// process died in between); a reply queued once is not queued again. Returns how many were.
pub async fn resume_classification(
    ctx: &Context,
    before: i64,
) -> Result<usize, crate::platform::queue::QueueError> {
    let mut resumed = 0;
    for inbound_id in ctx.db.responses().unread_replies(before).await? {
        resumed += usize::from(queue_classification(ctx, inbound_id).await?);
    }
    Ok(resumed)
}

/// A mailbox that cannot be read keeps the reason, shown with the sender, and is tried again at the next run.
pub async fn ingest_mailbox(ctx: &Context, config_id: i64) -> anyhow::Result<MailboxRun> {
    let (source, run) = if ctx.db.inbound().imap_mailbox(config_id).await?.is_some() {
        ("imap", ingest_imap(ctx, config_id).await)
    } else {
        ("gmail", ingest_gmail(ctx, config_id).await)
    };
    telemetry::inbound_read(source, run.is_ok());
    run
}

/// Applies one raw message read from a user's mailbox; true when it answered one of their messages.
async fn apply_read(ctx: &Context, user_id: i64, raw: &[u8], source: &str) -> anyhow::Result<bool> {
    let db = &ctx.db;
    let Some(inbound) = crate::inbound::mail::read(raw) else {
        return Ok(false);
    };
    let Some(message) = db.inbound().message_answered(user_id, &inbound).await? else {
        return Ok(false);
    };
    receive(ctx, user_id, Some(&message), inbound, source).await?;
    Ok(true)
}

async fn ingest_gmail(ctx: &Context, config_id: i64) -> anyhow::Result<MailboxRun> {
    let db = &ctx.db;
    let Some(mailbox) = db.inbound().gmail_mailbox(config_id).await? else {
        return Ok(MailboxRun::default());
    };
    let Some(refresh) = decrypt_secret(&ctx.settings.security.secret_key, &mailbox.secret) else {
        return Ok(MailboxRun::default());
    };
    let gmail = crate::sending::mail_apis::Gmail::of(&ctx.settings.google, refresh);
    let mut token = None;
    let read = async {
        let history = match &mailbox.gmail_history_id {
            Some(start) => gmail.added_since(&mut token, start).await?,
            None => None,
        };
        match history {
            Some(found) => Ok(found),
            // No usable history id (never read, or Gmail forgot that far back): the inbox since the last read.
            None => {
                let latest = gmail.history_id(&mut token).await?;
                let since = mailbox.replies_checked_at.unwrap_or(mailbox.created_at) - DAY_MS;
                let mut ids = gmail.inbox_since(&mut token, since, IMAP_BATCH).await?;
                // Listed newest first; applied in the order they arrived.
                ids.reverse();
                Ok::<_, crate::sending::SendError>((ids, latest))
            }
        }
    };
    let (ids, latest) = match read.await {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(config_id, %error, "Gmail mailbox not read");
            db.inbound()
                .set_replies_checked(config_id, Some(&error.to_string()), ctx.now_ms())
                .await?;
            return Ok(MailboxRun::default());
        }
    };
    let mut run = MailboxRun::default();
    for id in &ids {
        match gmail.raw_message(&mut token, id).await {
            Ok(Some(raw)) => {
                run.matched += usize::from(apply_read(ctx, mailbox.user_id, &raw, "gmail").await?);
                run.read += 1;
            }
            Ok(None) => {}
            Err(error) => {
                // The history id stays where it was: the next run reads these messages again.
                db.inbound()
                    .set_replies_checked(config_id, Some(&error.to_string()), ctx.now_ms())
                    .await?;
                return Ok(run);
            }
        }
    }
    db.inbound()
        .set_gmail_mark(config_id, &latest, ctx.now_ms())
        .await?;
    Ok(run)
}

async fn ingest_imap(ctx: &Context, config_id: i64) -> anyhow::Result<MailboxRun> {
    let db = &ctx.db;
    let Some(mailbox) = db.inbound().imap_mailbox(config_id).await? else {
        return Ok(MailboxRun::default());
    };
    let Some(password) = decrypt_secret(&ctx.settings.security.secret_key, &mailbox.imap_secret)
    else {
        db.inbound()
            .set_replies_checked(
                config_id,
                Some("The IMAP password cannot be read: save the sender again"),
                ctx.now_ms(),
            )
            .await?;
        return Ok(MailboxRun::default());
    };
    let server = ImapServer {
        host: mailbox.imap_host.clone(),
        port: mailbox.imap_port.unwrap_or(993) as u16,
        security: mailbox.imap_security.unwrap_or(Security::Tls),
        username: mailbox
            .imap_username
            .clone()
            .unwrap_or_else(|| mailbox.send_from.clone()),
        password,
        policy: ctx.settings.sending.policy(),
        timeout: ctx.settings.sending.timeout(),
    };
    let mark = match (mailbox.imap_uid_validity, mailbox.imap_last_uid) {
        (Some(validity), Some(last)) => Some(Mark {
            uid_validity: validity as u32,
            last_uid: last as u32,
        }),
        _ => None,
    };
    // Without a usable mark (the mailbox was recreated): what arrived since the last read, with a day's margin.
    let since = mailbox.replies_checked_at.unwrap_or(mailbox.created_at) - DAY_MS;
    let (uid_validity, messages) = match server.fetch_new(mark, since, IMAP_BATCH).await {
        Ok(read) => read,
        Err(error) => {
            tracing::warn!(config_id, %error, "IMAP mailbox not read");
            db.inbound()
                .set_replies_checked(config_id, Some(&error.to_string()), ctx.now_ms())
                .await?;
            return Ok(MailboxRun::default());
        }
    };
    let mut run = MailboxRun::default();
    for fetched in &messages {
        run.matched += usize::from(apply_read(ctx, mailbox.user_id, &fetched.raw, "imap").await?);
        let now = ctx.now_ms();
        db.inbound()
            .set_imap_mark(
                config_id,
                Mark {
                    uid_validity,
                    last_uid: fetched.uid,
                },
                now,
            )
            .await?;
        run.read += 1;
    }
    if messages.is_empty() {
        // Nothing new: the mark stays, the time of the check is kept (a changed UIDVALIDITY is taken at the next
        // message).
        db.inbound()
            .set_replies_checked(config_id, None, ctx.now_ms())
            .await?;
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_address_of_a_to_value_is_the_receiving_one() {
        assert_eq!(
            first_address("\"Ada\" <Ada@Bakery.Example>, b@y.example").as_deref(),
            Some("ada@bakery.example")
        );
        assert_eq!(
            first_address(" reply@x.example ").as_deref(),
            Some("reply@x.example")
        );
        assert_eq!(first_address("undisclosed-recipients:;"), None);
    }
}
