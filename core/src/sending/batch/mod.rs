//! The `SendCampaignEmail` job: a batch of up to `SendCampaignEmail::BATCH` messages of one campaign (or test send) is read in one query,
//! suppressed recipients are skipped, the rest are claimed under the limits in one transaction per sender, composed,
//! handed to their sender (one SMTP connection per sender and batch), and the accepted ones are marked sent in one
//! statement. A message already claimed or sent is passed over, so a retried or duplicated job sends nothing twice.
//! When a limit is reached the campaign pauses with the reason and the rest of the batch is scheduled again later.
//! A campaign's messages wait for its sending window (in each recipient's local time) and go at each sender's pace:
//! what may not go now is handed to a job that runs when it may.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use futures::FutureExt;

mod groups;
mod message;
mod record;
mod rotation;

use message::{SenderIdentity, compose_message, follow_up_thread};
use record::{Recorder, pause_for_room};

use crate::Context;
use crate::accounts::{User, normalize_email};
use crate::campaigns::CampaignStatus;
use crate::campaigns::personalise::Recipient;
use crate::platform::faults::panic_message;
use crate::platform::invalid::Invalid;
use crate::platform::jobs::SendCampaignEmail;
use crate::platform::security::random_token;
use crate::platform::telemetry::{self, PauseReason};
use crate::sending::compose::Composed;
use crate::sending::control::CampaignSendingSettings;
use crate::sending::handover::HandOverLog;
use crate::sending::messages::{Delivered, MessageKind, MessageRow, MessageStatus};
use crate::sending::outgoing::{Dispatch, Hold, queue_sending};
use crate::sending::sender::Sender;
use crate::sending::senders::{EmailConfig, Provider};
use crate::sending::slots::SenderSlots;
use crate::sending::steps::SendStep;
use crate::sending::{SendError, SenderFailure, health, recovery};

/// Whether the worker process is stopping; checked between messages, so a stop never cuts a send in half.
pub type Stopping<'a> = &'a (dyn Fn() -> bool + Sync);

/// Messages composed and handed to their sender together (one pipelined run over an SMTP connection); the
/// batch checks for a stopping worker between them.
pub const HANDED_OVER_TOGETHER: usize = 25;

/// Accepted messages are recorded together, at the latest after this long.
const RECORD_EVERY: Duration = Duration::from_millis(250);

/// Why a message to an address that bounced or complained before is not sent.
const SUPPRESSED_FOR_USER: &str = "The address bounced or reported spam earlier";

/// How long a batch waits for a slot of its sender before it goes back to the queue.
const SENDER_SLOT_WAIT: Duration = Duration::from_secs(1);

/// How long a batch whose sender has every slot taken waits in the queue before it is tried again.
const SENDER_BUSY_RETRY_MS: i64 = 2_000;

/// Why a claimed message goes back to the queue when its batch ends early.
const HANDED_BACK: &str = "The send was interrupted before this message; it will be sent later";

/// One batch's state: caches, open connections, and what is claimed but not yet sent or recorded.
struct Batch<'a> {
    ctx: &'a Context,
    job: &'a SendCampaignEmail,
    /// The lease this process claims under: hand-overs are recorded on its connections.
    lease: &'a str,
    /// Where those hand-overs go, with the other connections' (see `handover`).
    handovers: &'a HandOverLog,
    /// The campaign's sender name and reply-to address.
    settings: CampaignSendingSettings,
    /// Senders opened by this batch, by configuration (None: the outbox).
    senders: HashMap<Option<i64>, Sender>,
    /// Subject and body by template and step (a follow-up's are its own).
    templates: message::TemplateCache,
    /// Accepted by their sender, to be marked sent together.
    accepted: Vec<(i64, Composed, Provider)>,
    /// Claimed and not yet handed to a sender.
    claimed: Vec<i64>,
    /// Ids this batch has finished with (sent, failed, skipped, or handed back).
    done: Vec<i64>,
    last_record: Instant,
    /// A claim of this batch took room again, so a campaign paused for a limit is sending.
    resumed: bool,
    /// Senders whose failures in a row this batch ended by sending through them.
    recovered: HashSet<i64>,
    /// When the batch, holding a sender's slot, hands its rest to a new job (`sending.batch_seconds`).
    turn_ends: Option<Instant>,
    /// Each sender's pace in this batch's runs so far (the hand-over windows are sized by it).
    paces: HashMap<Option<i64>, Duration>,
}

/// How a batch ended before its last message.
enum Stop {
    /// The worker is stopping: the rest goes to a new job.
    HandOver,
    /// The sender's slots in this process are all taken: the rest goes to a new job a little later.
    SenderBusy,
    /// The batch held its sender's slot for its turn: the rest goes to a new job at the back of the queue.
    TurnOver,
    /// A limit is reached: the user's monthly quota (the campaign pauses and the rest waits), or the sender's
    /// daily cap; `unclaimed` are the messages it left.
    NoRoom { quota: bool, unclaimed: Vec<i64> },
    /// The sender was refused for good: it is turned off, and the campaign pauses unless its pool has another.
    /// `requeued` is the message it refused, back in the queue.
    SenderRefused { reason: String, requeued: i64 },
    /// The sender's server could not be reached or refused the sign-in (its failures in a row grow): the messages
    /// it claimed wait for it or, in a pool, for the others; `requeued` is the one it failed on.
    SenderDown { reason: String, requeued: i64 },
}

/// How long a pool's messages wait after their sender was down before its next try (three tries take it out).
const SENDER_DOWN_RETRY_MS: i64 = 20_000;

/// Sends one batch; the worker's `SendCampaignEmail` handler delegates here.
pub async fn send_campaign_email(
    ctx: &Context,
    job: &SendCampaignEmail,
    stopping: Stopping<'_>,
    slots: &SenderSlots,
) -> anyhow::Result<()> {
    let settings = match job.campaign_id {
        Some(campaign_id) => {
            ctx.db
                .sending()
                .campaign_sending_settings(campaign_id)
                .await?
        }
        None => {
            let branding = job.branding.clone().unwrap_or_default();
            CampaignSendingSettings {
                email_from_name: branding.from_name,
                reply_to: branding.reply_to,
                ..CampaignSendingSettings::default()
            }
        }
    };
    // A campaign the user paused keeps its messages queued; resuming gives them new jobs.
    if settings.paused_by_user {
        return Ok(());
    }
    let mut batch = Batch {
        ctx,
        job,
        lease: slots.lease(),
        handovers: slots.handovers(),
        settings,
        senders: HashMap::new(),
        templates: HashMap::new(),
        accepted: Vec::new(),
        claimed: Vec::new(),
        done: Vec::new(),
        last_record: Instant::now(),
        resumed: false,
        recovered: HashSet::new(),
        turn_ends: None,
        paces: HashMap::new(),
    };
    // A panic while sending fails the batch like an error, after what it did is recorded below.
    let outcome = match AssertUnwindSafe(batch.run(stopping, slots))
        .catch_unwind()
        .await
    {
        Ok(outcome) => outcome,
        Err(panic) => Err(anyhow::anyhow!(
            "the send batch panicked: {}",
            panic_message(&*panic)
        )),
    };
    // Whatever happened, accepted messages are recorded and unsent claims go back to the queue (those of a batch
    // whose sender was busy or whose turn ended, with nothing said: nothing happened to them).
    let interrupted = !matches!(outcome, Ok(Some(Stop::SenderBusy | Stop::TurnOver)));
    let recorded = batch.settle(interrupted.then_some(HANDED_BACK)).await;
    for sender in batch.senders.values_mut() {
        sender.close().await;
    }
    recorded?;
    let now = ctx.now_ms();
    match outcome? {
        None => {}
        Some(stop @ (Stop::HandOver | Stop::SenderBusy | Stop::TurnOver)) => {
            // Unique: a batch fetched during the stop hands over the same messages again.
            let tag = format!("handed-over:{}", random_token(8));
            let dispatch = Dispatch {
                tag: &tag,
                at_once: job.at_once,
                not_before: matches!(stop, Stop::SenderBusy).then_some(now + SENDER_BUSY_RETRY_MS),
                branding: job.branding.as_ref(),
            };
            queue_sending(&ctx.queue, job.campaign_id, &batch.rest(), dispatch).await?;
            return Ok(());
        }
        Some(Stop::NoRoom { quota, .. }) => {
            let rest = batch.rest();
            if !rest.is_empty() {
                pause_for_room(ctx, job, &rest, quota, now).await?;
            }
            return Ok(());
        }
        Some(Stop::SenderDown { reason, .. }) => anyhow::bail!("{reason}"),
        Some(Stop::SenderRefused { reason, .. }) => {
            if let Some(campaign_id) = job.campaign_id {
                ctx.db
                    .campaigns()
                    .set_campaign_status(
                        campaign_id,
                        CampaignStatus::Paused,
                        Some(&format!("Paused: {reason}")),
                        now,
                    )
                    .await?;
                telemetry::campaign_paused(PauseReason::Sender);
            }
            return Ok(());
        }
    }
    if let Some(campaign_id) = job.campaign_id {
        ctx.db
            .sending()
            .complete_campaign_if_done(campaign_id, now)
            .await?;
    }
    Ok(())
}

impl Batch<'_> {
    async fn run(
        &mut self,
        stopping: Stopping<'_>,
        slots: &SenderSlots,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        // A batch fetched while the worker stops claims nothing: all of it goes to a new job.
        if stopping() {
            return Ok(Some(Stop::HandOver));
        }
        let rows = SendStep::Load
            .time(ctx.db.sending().load_messages(&self.job.message_ids))
            .await?;
        let mut rows: Vec<MessageRow> = rows
            .into_iter()
            .filter(|row| row.status == MessageStatus::Queued)
            .collect();
        let emails: Vec<String> = rows
            .iter()
            .map(|row| normalize_email(&row.to_email))
            .collect();
        let suppressed = SendStep::Load
            .time(ctx.db.sending().suppressed_among(&emails))
            .await?;
        if !suppressed.is_empty() {
            let (skip, keep): (Vec<_>, Vec<_>) = rows
                .into_iter()
                .partition(|row| suppressed.contains(&normalize_email(&row.to_email)));
            for row in skip {
                ctx.db
                    .sending()
                    .mark_unsent(
                        row.id,
                        MessageStatus::Skipped,
                        "The recipient unsubscribed",
                        None,
                    )
                    .await?;
                self.done.push(row.id);
            }
            rows = keep;
        }
        // A campaign sends inside its window, in each recipient's local time: the rest waits for it to open (but
        // for a Run Now, which executes immediately).
        if let Some(campaign_id) = self.job.campaign_id
            && !self.job.at_once
        {
            rows = self.defer_outside_window(campaign_id, rows).await?;
        }
        // A batch normally has one user and one sender (or its campaign's pool); consecutive runs of each are
        // claimed together.
        for group in
            rows.chunk_by(|a, b| a.user_id == b.user_id && a.sender_key() == b.sender_key())
        {
            let first = &group[0];
            let Some(user) = ctx.db.accounts().find_user(first.user_id).await? else {
                continue;
            };
            let monthly_limit = user.email_limit(&ctx.settings.auth, &ctx.settings.accounts);
            let ids = self.without_suppressed(&user, group).await?;
            if ids.is_empty() {
                continue;
            }
            let stop = match (self.job.campaign_id, first.pooled) {
                (Some(campaign_id), true) => {
                    self.send_pooled(
                        campaign_id,
                        &user,
                        ids,
                        group,
                        monthly_limit,
                        slots,
                        stopping,
                    )
                    .await?
                }
                _ => {
                    self.send_fixed(&user, first, ids, group, monthly_limit, slots, stopping)
                        .await?
                }
            };
            if stop.is_some() {
                return Ok(stop);
            }
        }
        Ok(None)
    }

    /// The messages that may go now under the campaign's sending window; the others are handed to jobs that run when
    /// the window opens for their recipients.
    async fn defer_outside_window(
        &mut self,
        campaign_id: i64,
        rows: Vec<MessageRow>,
    ) -> anyhow::Result<Vec<MessageRow>> {
        let window = self.settings.window.window();
        if window.is_always() || rows.is_empty() {
            return Ok(rows);
        }
        let business_ids: Vec<i64> = rows.iter().filter_map(|row| row.business_id).collect();
        let zones = self
            .ctx
            .db
            .sending()
            .recipient_zones(&business_ids, window.time_zone)
            .await?;
        let now = self.ctx.now_ms();
        let mut waiting: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        let mut open = Vec::with_capacity(rows.len());
        for row in rows {
            let zone = row
                .business_id
                .and_then(|id| zones.get(&id).copied())
                .unwrap_or(window.time_zone);
            let opens = window.next_open(now, zone);
            if opens > now {
                waiting.entry(opens).or_default().push(row.id);
            } else {
                open.push(row);
            }
        }
        for (opens, ids) in waiting {
            self.later(campaign_id, ids, opens, Hold::Window).await?;
        }
        Ok(open)
    }

    /// Hands messages (still queued, not claimed) to a job that runs at `at`; `why` keeps its key apart from others
    /// and tells the campaign's progress what holds them.
    async fn later(
        &mut self,
        campaign_id: i64,
        ids: Vec<i64>,
        at: i64,
        why: Hold,
    ) -> anyhow::Result<()> {
        self.done.extend(&ids);
        let dispatch = Dispatch {
            tag: &why.tag(at),
            at_once: false,
            not_before: Some(at),
            branding: None,
        };
        queue_sending(&self.ctx.queue, Some(campaign_id), &ids, dispatch).await?;
        Ok(())
    }

    /// Composes a few claimed messages and hands them to their sender (SMTP pipelines them over one connection).
    /// `Some` ends the batch.
    async fn send_chunk(
        &mut self,
        rows: &[&MessageRow],
        user: &User,
        config: Option<&EmailConfig>,
        recipients: &HashMap<i64, Recipient>,
        stopping: Stopping<'_>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        // The first emails the follow-ups among these answer, in one read.
        let answering: Vec<i64> = rows
            .iter()
            .filter(|row| row.kind.in_thread() && row.campaign_id.is_some())
            .filter_map(|row| row.business_id)
            .collect();
        let threads = match self.job.campaign_id {
            Some(campaign_id) => ctx.db.sending().threads_of(campaign_id, &answering).await?,
            None => HashMap::new(),
        };
        let mut ready = Vec::with_capacity(rows.len());
        for row in rows {
            let recipient = match row.business_id.and_then(|id| recipients.get(&id)) {
                Some(recipient) => recipient.clone(),
                None if row.kind == MessageKind::Test => Recipient::sample(),
                None => Recipient::default(),
            };
            let sender = SenderIdentity::new(ctx, user, config, &self.settings);
            let thread = follow_up_thread(row, &threads);
            // A message whose writing panics (data no test thought of) fails alone, with why.
            let written = SendStep::Compose
                .time(
                    AssertUnwindSafe(compose_message(
                        ctx,
                        row,
                        &sender,
                        &recipient,
                        thread,
                        &mut self.templates,
                    ))
                    .catch_unwind(),
                )
                .await
                .unwrap_or_else(|panic| {
                    Ok(Err(Invalid(format!(
                        "The message could not be written: {}",
                        panic_message(&*panic)
                    ))))
                });
            match written? {
                Ok(composed) => ready.push((row.id, composed)),
                Err(reason) => {
                    self.finished(row.id);
                    ctx.db
                        .sending()
                        .mark_unsent(row.id, MessageStatus::Failed, &reason.0, None)
                        .await?;
                }
            }
        }
        let provider = config.map_or(Provider::Outbox, |config| config.provider);
        let key = config.map(|config| config.id);
        if let std::collections::hash_map::Entry::Vacant(entry) = self.senders.entry(key) {
            match Sender::open(config, &ctx.settings) {
                Ok(sender) => {
                    entry.insert(sender);
                }
                Err(error) => {
                    for (id, composed) in ready {
                        let outcome = Err(error.clone());
                        if let Some(stop) =
                            self.handle(id, composed, config, provider, outcome).await?
                        {
                            return Ok(Some(stop));
                        }
                    }
                    return Ok(None);
                }
            }
        }
        let (ids, mut composed): (Vec<i64>, Vec<Composed>) = ready.into_iter().unzip();
        let mut next = 0;
        while next < ids.len() {
            // A run pauses after RECORD_EVERY so a slow sender's messages are recorded as they go (SMTP pipelines
            // a run over one connection; the mail APIs take one message at a time).
            let started = Instant::now();
            let turn_ends = self.turn_ends;
            let pause = || {
                stopping()
                    || started.elapsed() >= RECORD_EVERY
                    || turn_ends.is_some_and(|end| Instant::now() >= end)
            };
            let sender = self.senders.get_mut(&key).expect("opened above");
            // A mail API takes one message per request: a window would only widen the doubt after a crash.
            let window = match sender {
                Sender::Smtp(_) => ctx.settings.sending.handover_window,
                _ => 1,
            };
            let message_ids = composed[next..]
                .iter()
                .map(|message| message.message_id.clone())
                .collect();
            let mut recorder = Recorder::new(
                &ctx.db,
                self.handovers,
                self.lease,
                (&ids[next..], message_ids),
                window,
                self.paces.get(&key).copied(),
            );
            let outcomes = sender
                .send_all(&composed[next..], &pause, &mut recorder)
                .await;
            let unmarked = recorder.unmark_untried(outcomes.len()).await;
            if let Some(gap) = recorder.gap {
                self.paces.insert(key, gap);
            }
            SendStep::Smtp.record(started.elapsed().saturating_sub(recorder.handing));
            // Messages after a deferral were not handed over: they stay claimed and go back to the queue.
            for outcome in outcomes {
                let message = std::mem::take(&mut composed[next]);
                let id = ids[next];
                next += 1;
                if let Some(stop) = self.handle(id, message, config, provider, outcome).await? {
                    return Ok(Some(stop));
                }
            }
            // Still marked, the untried ones would be settled as in doubt: the batch stops (they are never resent).
            if let Err(reason) = unmarked {
                anyhow::bail!("the untried messages' hand-over could not be undone: {reason}");
            }
            if next < ids.len() && stopping() {
                return Ok(Some(Stop::HandOver));
            }
            if next < ids.len() && self.turn_is_over() {
                return Ok(Some(Stop::TurnOver));
            }
        }
        Ok(None)
    }

    /// Records what the sender said about one message. `Some` ends the batch.
    async fn handle(
        &mut self,
        id: i64,
        composed: Composed,
        config: Option<&EmailConfig>,
        provider: Provider,
        outcome: Result<(), SendError>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        self.finished(id);
        telemetry::send(
            provider.as_str(),
            outcome.as_ref().err().map_or("sent", SendError::kind),
        );
        match outcome {
            Ok(()) => {
                if let Some(config) = config
                    && config.failure_streak > 0
                    && self.recovered.insert(config.id)
                {
                    ctx.db.sending().sender_worked(config.id).await?;
                }
                self.accepted.push((id, composed, provider));
                // Slow senders still show progress (and leave little to reconcile after a crash).
                if self.last_record.elapsed() >= RECORD_EVERY {
                    self.record_accepted().await?;
                }
                Ok(None)
            }
            // Not handed over: back to the queue, and the job retries with backoff (sent ones are passed over).
            Err(SendError::Unreachable(reason)) => {
                ctx.db.sending().requeue_message(id, &reason).await?;
                anyhow::bail!("message {id}: {reason}");
            }
            // A test send has no campaign to wait in: a refusal fails it with the reason, an unreachable server
            // leaves it to the job's retry.
            Err(SendError::SenderDown { reason, failure }) if self.job.campaign_id.is_none() => {
                if failure == SenderFailure::Unreachable {
                    ctx.db.sending().requeue_message(id, &reason).await?;
                    anyhow::bail!("message {id}: {reason}");
                }
                ctx.db
                    .sending()
                    .mark_unsent(id, MessageStatus::Failed, &reason, Some(provider))
                    .await?;
                Ok(None)
            }
            // The sender could not be used at all: the message waits, and three times in a row take the sender
            // out of rotation.
            Err(SendError::SenderDown { reason, failure }) => {
                ctx.db.sending().requeue_message(id, &reason).await?;
                if let Some(config) = config {
                    health::sender_failed(ctx, config.id, failure, &reason).await?;
                }
                Ok(Some(Stop::SenderDown {
                    reason,
                    requeued: id,
                }))
            }
            // The sender itself stopped working: it is turned off with the reason, the message waits, and the
            // campaign pauses until the user connects the sender again (unless its pool has another sender).
            Err(SendError::Revoked(reason)) => {
                if let Some(config) = config {
                    ctx.db
                        .sending()
                        .deactivate_email_config(config.id, &reason, ctx.now_ms())
                        .await?;
                }
                if self.job.campaign_id.is_none() {
                    // A test send has no campaign to wait in: it fails with the reason.
                    ctx.db
                        .sending()
                        .mark_unsent(id, MessageStatus::Failed, &reason, Some(provider))
                        .await?;
                    return Ok(None);
                }
                ctx.db.sending().requeue_message(id, &reason).await?;
                Ok(Some(Stop::SenderRefused {
                    reason,
                    requeued: id,
                }))
            }
            // Handed over with no answer: it may have arrived, so it is never sent again, and shows as uncertain.
            Err(SendError::Uncertain(reason)) => {
                tracing::info!(message = id, %reason, "message in doubt");
                ctx.db
                    .sending()
                    .mark_uncertain(id, &reason, Some(provider))
                    .await?;
                Ok(None)
            }
            // Refused or unbuildable: never sent again.
            Err(SendError::Refused(reason) | SendError::Invalid(reason)) => {
                tracing::info!(message = id, %reason, "message refused");
                ctx.db
                    .sending()
                    .mark_unsent(id, MessageStatus::Failed, &reason, Some(provider))
                    .await?;
                Ok(None)
            }
        }
    }

    /// Whether the batch has held its sender's slot for its turn.
    fn turn_is_over(&self) -> bool {
        self.turn_ends.is_some_and(|end| Instant::now() >= end)
    }

    /// The batch is done with this message (whatever happens to it next is recorded by the caller).
    fn finished(&mut self, id: i64) {
        self.claimed.retain(|claimed| *claimed != id);
        self.done.push(id);
    }

    /// Records the accepted messages in one statement and hands unsent claims back to the queue, with why (one whose
    /// content was under way when the batch failed may have arrived: it is uncertain, never sent again).
    async fn settle(&mut self, why: Option<&str>) -> anyhow::Result<()> {
        self.record_accepted().await?;
        let unsent = std::mem::take(&mut self.claimed);
        self.ctx
            .db
            .sending()
            .release_claims(&unsent, why, recovery::UNDER_WAY)
            .await?;
        Ok(())
    }

    /// Marks the messages accepted so far sent, in one statement.
    async fn record_accepted(&mut self) -> anyhow::Result<()> {
        let delivered: Vec<Delivered> = self
            .accepted
            .iter()
            .map(|(id, composed, provider)| {
                // The outbox view shows what would have gone out; a sent message keeps only its body (B §3's
                // email dialog shows it), which also keeps each row small for a fast batch write.
                let outbox = *provider == Provider::Outbox;
                Delivered {
                    id: *id,
                    subject: &composed.subject,
                    html: if outbox {
                        &composed.html
                    } else {
                        &composed.body
                    },
                    text: outbox.then_some(composed.text.as_str()),
                    message_id: &composed.message_id,
                    provider: *provider,
                }
            })
            .collect();
        SendStep::MarkSent
            .time(
                self.ctx
                    .db
                    .sending()
                    .mark_sent_batch(&delivered, self.ctx.now_ms()),
            )
            .await?;
        self.accepted.clear();
        self.last_record = Instant::now();
        Ok(())
    }

    /// The batch's messages it did not finish, in order.
    fn rest(&self) -> Vec<i64> {
        self.job
            .message_ids
            .iter()
            .copied()
            .filter(|id| !self.done.contains(id))
            .collect()
    }
}
