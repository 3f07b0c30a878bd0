//! Mail that comes back, applied to what was sent, whichever way it arrives (SendGrid Inbound Parse, an SMTP
//! sender's IMAP mailbox, a reply typed in the outbox): the message it answers is found among its user's messages by
//! the Message-IDs it refers to (In-Reply-To, References), else as the latest message to its author (for a bounce,
//! the address that failed); the mail is kept and its outcome applied (a reply stops follow-ups, a hard bounce
//! suppresses). Reading an IMAP mailbox remembers the last UID, one message at a time.

use crate::Context;
use crate::clock::DAY_MS;
use crate::db::Db;
use crate::feedback::{NewInbound, Outcome, SentRef};
use crate::imap::{ImapServer, Mark};
use crate::inbound::{Inbound, Kind};
use crate::on_db;
use crate::queries::*;
use crate::security::decrypt_secret;
use crate::store::StoreResult;

/// At most this many messages are read from a mailbox per run; the rest come at the next run.
pub const IMAP_BATCH: usize = 200;

/// An SMTP sender's mailbox, with where reading stopped.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ImapMailbox {
    pub id: i64,
    pub user_id: i64,
    pub imap_host: String,
    pub imap_port: Option<i32>,
    pub imap_security: Option<String>,
    pub imap_username: Option<String>,
    pub imap_secret: String,
    pub imap_uid_validity: Option<i64>,
    pub imap_last_uid: Option<i64>,
    pub imap_checked_at: Option<i64>,
    pub send_from: String,
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

impl Db {
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

    /// Keeps an inbound mail of a user and applies what it means to its message.
    pub async fn record_inbound(
        &self,
        user_id: i64,
        message: Option<&SentRef>,
        inbound: &Inbound,
        source: &str,
        now: i64,
    ) -> StoreResult<()> {
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
        self.insert_inbound(
            &NewInbound {
                user_id,
                message_id: message.map(|message| message.id),
                kind: inbound.kind.name(),
                from_email: inbound.from.as_deref(),
                subject: &inbound.subject,
                body: &inbound.text,
                detail: detail.as_deref(),
                source,
            },
            now,
        )
        .await?;
        if let (Some(message), Some(outcome)) = (message, outcome) {
            self.apply_outcome(message, &outcome, now).await?;
        }
        Ok(())
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

    /// Reading this sender's mailbox got as far as `mark`.
    pub async fn set_imap_mark(&self, config_id: i64, mark: Mark, at: i64) -> StoreResult<()> {
        let sql = REPLIES_MARK.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(config_id).bind(i64::from(mark.uid_validity))
            .bind(i64::from(mark.last_uid)).bind(at).execute(pool).await.map(|_| ()))
    }

    async fn set_imap_checked(
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

/// Reads one sender's mailbox for new mail and applies what answers the user's messages; mail that answers none
/// of them (the rest of a personal inbox) is neither kept nor touched. A mailbox that cannot be read keeps the
/// reason, shown with the sender, and is tried again at the next run.
pub async fn ingest_mailbox(ctx: &Context, config_id: i64) -> anyhow::Result<MailboxRun> {
    let db = &ctx.db;
    let Some(mailbox) = db.imap_mailbox(config_id).await? else {
        return Ok(MailboxRun::default());
    };
    let Some(password) = decrypt_secret(&ctx.settings.security.secret_key, &mailbox.imap_secret)
    else {
        db.set_imap_checked(
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
        security: mailbox
            .imap_security
            .clone()
            .unwrap_or_else(|| "tls".into()),
        username: mailbox
            .imap_username
            .clone()
            .unwrap_or_else(|| mailbox.send_from.clone()),
        password,
    };
    let mark = match (mailbox.imap_uid_validity, mailbox.imap_last_uid) {
        (Some(validity), Some(last)) => Some(Mark {
            uid_validity: validity as u32,
            last_uid: last as u32,
        }),
        _ => None,
    };
    // Without a usable mark (the mailbox was recreated): what arrived since the last read, with a day's margin.
    let since = mailbox.imap_checked_at.unwrap_or(mailbox.created_at) - DAY_MS;
    let (uid_validity, messages) = match server.fetch_new(mark, since, IMAP_BATCH).await {
        Ok(read) => read,
        Err(error) => {
            tracing::warn!(config_id, %error, "IMAP mailbox not read");
            db.set_imap_checked(config_id, Some(&error.to_string()), ctx.now_ms())
                .await?;
            return Ok(MailboxRun::default());
        }
    };
    let mut run = MailboxRun::default();
    for fetched in &messages {
        let now = ctx.now_ms();
        if let Some(inbound) = crate::inbound::read(&fetched.raw)
            && let Some(message) = db.message_answered(mailbox.user_id, &inbound).await?
        {
            db.record_inbound(mailbox.user_id, Some(&message), &inbound, "imap", now)
                .await?;
            run.matched += 1;
        }
        db.set_imap_mark(
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
        db.set_imap_checked(config_id, None, ctx.now_ms()).await?;
    }
    Ok(run)
}
