//! The one way a message is written and queued. Every producer (a campaign's launch, the follow-up tick, an answer
//! to a reply, a test send, and the recovery of a crashed batch) says what kind of messages it writes, records them
//! here (their rows first, each with its unique key, so a second write of the same message adds nothing), does its
//! own bookkeeping, and then queues their sending jobs here, in batches keyed by their first message.
//!
//! The rows and their jobs are two writes: the queue's storage pushes on a connection of its own, so they cannot
//! share a transaction. A crash between the two leaves messages queued with no job, which the scheduler gives a job
//! within one lease (`recovery::requeue_waiting_messages`).

use crate::platform::db::{Db, StoreResult};
use crate::platform::jobs::{Branding, SendCampaignEmail};
use crate::platform::queue::{Queue, QueueError};
use crate::platform::security::random_token;
use crate::sending::messages::{MessageKind, MessageStatus, NewMessage};
use crate::sending::variants::Drawn;

/// Messages of one kind from one user, through one sender (None: the outbox, or the campaign's pool), in one
/// campaign (None: a test send).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outgoing {
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub config_id: Option<i64>,
    /// First emails that get their sender from the campaign's pool when they are sent.
    pub pooled: bool,
    pub kind: MessageKind,
}

/// One message to write: its recipient and what it says; the rest comes from its [`Outgoing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Letter<'a> {
    pub to_email: &'a str,
    pub business_id: Option<i64>,
    /// The template it is written from (a first email or follow-up), or none when it brings its own text.
    pub template_id: Option<i64>,
    /// Its number among the thread's messages of its kind (see [`NewMessage::step`]).
    pub step: i32,
    /// Why it cannot be sent: it is recorded as skipped with this reason.
    pub skip: Option<&'a str>,
    /// Its own subject and body, when it has no template (an answer, a test send of its own text).
    pub subject: &'a str,
    pub html_body: Option<&'a str>,
    /// The Message-ID of the reply it answers.
    pub in_reply_to: Option<&'a str>,
}

/// A message's tracking token, which its Message-ID carries too: the time it is written (milliseconds, twelve
/// hexadecimal digits) and then 16 random bytes. Tokens written later sort after earlier ones, so a batch of new
/// messages adds its entries at one place of the token index (and, once sent, of the Message-ID index) instead of a
/// random page of each: 20,000 entries went into a million-entry index of PostgreSQL in 190–260 ms against
/// 340–630 ms for random tokens (docs/benchmarks.md, Follow-ups). The links stay unforgeable: they are signed.
fn message_token(now: i64) -> String {
    format!("{:012x}{}", now.max(0), random_token(16))
}

/// How the sending jobs run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dispatch<'a> {
    /// Tells these jobs from earlier ones over the same messages (empty for the first).
    pub tag: &'a str,
    /// Sent at once, whatever the campaign's sending window (an automation's Run Now).
    pub at_once: bool,
    /// Not to run before this time (epoch milliseconds).
    pub not_before: Option<i64>,
    /// A test send's from name and reply-to.
    pub branding: Option<&'a Branding>,
}

impl Outgoing {
    /// Records the letters in one statement, each with a fresh tracking token; returns the ids of the rows added, in
    /// order (a letter whose campaign, business, kind and step are taken adds none).
    pub async fn write(&self, db: &Db, letters: &[Letter<'_>], now: i64) -> StoreResult<Vec<i64>> {
        let tokens: Vec<String> = letters.iter().map(|_| message_token(now)).collect();
        // A campaign's first emails and follow-ups get their A/B variant as they are written (issue 81).
        let variants = match self.campaign_id {
            Some(campaign_id) => {
                let drawn: Vec<Drawn> = letters
                    .iter()
                    .map(|letter| Drawn {
                        template_id: letter.template_id,
                        step: letter.step,
                        skipped: letter.skip.is_some(),
                        business_id: letter.business_id,
                        to_email: letter.to_email,
                    })
                    .collect();
                crate::sending::variants::assign(db, campaign_id, self.kind, &drawn).await?
            }
            None => vec![0; letters.len()],
        };
        let messages: Vec<NewMessage> = letters
            .iter()
            .zip(&tokens)
            .zip(&variants)
            .map(|((letter, token), &variant)| NewMessage {
                user_id: self.user_id,
                to_email: letter.to_email,
                status: match letter.skip {
                    Some(_) => MessageStatus::Skipped,
                    None => MessageStatus::Queued,
                },
                campaign_id: self.campaign_id,
                template_id: letter.template_id,
                business_id: letter.business_id,
                kind: self.kind,
                step: letter.step,
                config_id: self.config_id,
                pooled: self.pooled,
                token,
                error: letter.skip,
                subject: letter.subject,
                html_body: letter.html_body,
                in_reply_to: letter.in_reply_to,
                variant,
            })
            .collect();
        db.sending().enqueue_messages(&messages, now).await
    }

    /// Queues the sending jobs of these messages of the campaign (see [`queue_sending`]).
    pub async fn queue(
        &self,
        queue: &Queue,
        ids: &[i64],
        dispatch: Dispatch<'_>,
    ) -> Result<usize, QueueError> {
        queue_sending(queue, self.campaign_id, ids, dispatch).await
    }
}

crate::text_enum! {
    /// What keeps a campaign's queued email from going now: the tag of the sending job that waits for it.
    pub enum Hold ("send hold") {
        /// The sending window is closed where its recipient is.
        Window = "window",
        /// Its sender's pace (the daily cap spread over the window).
        Pace = "pace",
        /// Every sender that may send it has sent its cap for today.
        DailyCap = "daily_cap",
        /// The monthly email limit is used up.
        MonthlyQuota = "monthly_quota",
        /// A sender was down or refused it: another sender of the pool tries again.
        Retry = "retry",
    }
}

impl Hold {
    /// The tag of a job that waits until `at` (epoch milliseconds) for this reason.
    pub fn tag(self, at: i64) -> String {
        format!("{self}:{at}")
    }

    /// The hold of a waiting sending job, from its key (`send:{campaign}:{first message}:{hold}:{at}`); none for a
    /// job that waits for nothing named (a retry's backoff, a key written before holds were named).
    pub fn of_job_key(key: &str) -> Option<Hold> {
        key.split(':').nth(3)?.parse().ok()
    }
}

/// Queues sending jobs for messages of a campaign (None: test sends), [`SendCampaignEmail::BATCH`] to a job, each
/// keyed by the campaign, its first message and the dispatch's tag, so the same jobs are never added twice; returns
/// how many jobs were added.
pub async fn queue_sending(
    queue: &Queue,
    campaign_id: Option<i64>,
    ids: &[i64],
    dispatch: Dispatch<'_>,
) -> Result<usize, QueueError> {
    let campaign = campaign_id.map_or_else(|| "test".to_string(), |id| id.to_string());
    let jobs: Vec<(SendCampaignEmail, String)> = ids
        .chunks(SendCampaignEmail::BATCH)
        .map(|batch| {
            let key = match dispatch.tag {
                "" => format!("send:{campaign}:{}", batch[0]),
                tag => format!("send:{campaign}:{}:{tag}", batch[0]),
            };
            let job = SendCampaignEmail {
                campaign_id,
                message_ids: batch.to_vec(),
                at_once: dispatch.at_once,
                branding: dispatch.branding.cloned(),
            };
            (job, key)
        })
        .collect();
    if dispatch.not_before.is_none() {
        return queue.enqueue_all(jobs).await;
    }
    let mut added = 0;
    for (job, key) in jobs {
        added += usize::from(
            queue
                .enqueue_at(job, Some(&key), dispatch.not_before)
                .await?,
        );
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::message_token;

    #[test]
    fn message_tokens_sort_by_the_time_they_were_written_and_stay_unique() {
        let (earlier, later) = (
            message_token(1_800_000_000_000),
            message_token(1_800_000_000_001),
        );
        assert!(earlier < later, "{earlier} sorts before {later}");
        assert!(earlier.starts_with("01a3185c5000"), "{earlier}");
        assert_ne!(message_token(1_800_000_000_000), earlier);
        // A link's path and a Message-ID's local part take it as it is.
        assert!(
            later
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{later}"
        );
        // Sorting holds across a change in the number of significant digits, to the year 10889.
        assert!(message_token(0xf_ffff_ffff) < message_token(0x10_0000_0000));
    }
}
