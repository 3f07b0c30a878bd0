//! A batch's groups of messages, one user's through one sender (or their campaign's pool): addresses the user may no
//! longer mail are skipped, a message with a sender of its own goes from it (a thread's follow-up or answer waits
//! while its mailbox cannot send), and one sender's share is claimed under the limits and handed over.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{Batch, HANDED_OVER_TOGETHER, SENDER_SLOT_WAIT, SUPPRESSED_FOR_USER, Stop, Stopping};
use crate::accounts::{User, normalize_email};
use crate::campaigns::personalise::Recipient;
use crate::platform::clock::DAY_MS;
use crate::sending::messages::{BatchClaim, Limits, MessageRow, MessageStatus};
use crate::sending::outgoing::Hold;
use crate::sending::pool::Standing;
use crate::sending::senders::EmailConfig;
use crate::sending::slots::SenderSlots;
use crate::sending::steps::SendStep;

impl Batch<'_> {
    /// The group's messages but those to addresses that bounced hard or complained to this user, which are skipped:
    /// they are never sent to again.
    pub(super) async fn without_suppressed(
        &mut self,
        user: &User,
        group: &[MessageRow],
    ) -> anyhow::Result<Vec<i64>> {
        let emails: Vec<String> = group
            .iter()
            .map(|row| normalize_email(&row.to_email))
            .collect();
        let blocked = self
            .ctx
            .db
            .sending()
            .suppressed_for_user(user.id, &emails)
            .await?;
        let mut ids = Vec::with_capacity(group.len());
        for (row, email) in group.iter().zip(&emails) {
            if blocked.contains(email) {
                self.ctx
                    .db
                    .sending()
                    .mark_unsent(row.id, MessageStatus::Skipped, SUPPRESSED_FOR_USER, None)
                    .await?;
                self.done.push(row.id);
            } else {
                ids.push(row.id);
            }
        }
        Ok(ids)
    }

    /// Messages with a sender of their own (none: the outbox): a test send, or a follow-up or answer on the mailbox
    /// of its thread, which waits while that mailbox cannot send rather than going from another.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_fixed(
        &mut self,
        user: &User,
        first: &MessageRow,
        mut ids: Vec<i64>,
        group: &[MessageRow],
        monthly_limit: i64,
        slots: &SenderSlots,
        stopping: Stopping<'_>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        let config = match first.config_id {
            Some(config_id) => ctx.db.sending().load_email_config(config_id).await?,
            None => None,
        };
        let (Some(campaign_id), Some(config)) = (self.job.campaign_id, config.as_ref()) else {
            let limits = Limits {
                monthly_limit,
                daily_cap: config
                    .as_ref()
                    .map_or(i64::MAX, |config| i64::from(config.daily_cap)),
            };
            return self
                .send_through(user, config.as_ref(), &ids, group, limits, slots, stopping)
                .await;
        };
        if let Some(why) = self.thread_waits(campaign_id, config, first.kind).await? {
            self.hold(&ids, &why).await?;
            return Ok(None);
        }
        let usage = ctx
            .db
            .sending()
            .sender_usage(&[config.id], ctx.now_ms())
            .await?;
        let standing = Standing::of(
            config,
            usage.get(&config.id).copied().unwrap_or_default(),
            ctx.now_ms(),
        );
        // Each sender of a campaign sends at its pace: what it may not send now waits for its turn.
        let open_minutes = self.settings.window.window().open_minutes_a_day();
        let gap = slots.pacer().gap(standing.cap_today as i32, open_minutes);
        let admitted = slots.pacer().admit(config.id, gap, ids.len());
        if let Some(next_at) = admitted.next_at {
            let held = ids.split_off(admitted.now);
            self.later(campaign_id, held, next_at, Hold::Pace).await?;
        }
        if ids.is_empty() {
            return Ok(None);
        }
        let limits = Limits {
            monthly_limit,
            daily_cap: standing.cap_today,
        };
        match self
            .send_through(user, Some(config), &ids, group, limits, slots, stopping)
            .await?
        {
            // Not handed over: back to the queue, and the job retries with backoff (sent ones are passed over).
            Some(Stop::SenderDown { reason, .. }) => anyhow::bail!("{reason}"),
            // The thread's mailbox sent its cap for today: the rest of its thread waits for tomorrow.
            Some(Stop::NoRoom {
                quota: false,
                unclaimed,
            }) => {
                let tomorrow = (ctx.now_ms().div_euclid(DAY_MS) + 1) * DAY_MS;
                self.hold(
                    &unclaimed,
                    &format!("Waiting: {} sent its cap for today", config.send_from),
                )
                .await?;
                self.later(campaign_id, unclaimed, tomorrow, Hold::DailyCap)
                    .await?;
                Ok(None)
            }
            stop => Ok(stop),
        }
    }

    /// Claims messages for one sender (None: the outbox) under `limits`, and sends them. `Some` ends the batch.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_through(
        &mut self,
        user: &User,
        config: Option<&EmailConfig>,
        ids: &[i64],
        group: &[MessageRow],
        limits: Limits,
        slots: &SenderSlots,
        stopping: Stopping<'_>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        let claim = SendStep::Claim
            .time(ctx.db.sending().claim_messages(
                user.id,
                config.map(|config| config.id),
                ids,
                limits,
                slots.lease(),
                ctx.now_ms(),
            ))
            .await?;
        let recipients = recipients(self.ctx, user, group).await?;
        self.send_claimed(
            user,
            config,
            (ids, &claim),
            group,
            &recipients,
            slots,
            stopping,
        )
        .await
    }

    /// Sends what one sender claimed of `ids` (a sender's slot first). `Some` ends the batch, or (a sender down,
    /// or no room) this sender's share; what it claimed and did not finish is in `self.claimed`.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_claimed(
        &mut self,
        user: &User,
        config: Option<&EmailConfig>,
        (ids, claim): (&[i64], &BatchClaim),
        group: &[MessageRow],
        recipients: &HashMap<i64, Recipient>,
        slots: &SenderSlots,
        stopping: Stopping<'_>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        for id in &claim.claimed {
            if !self.claimed.contains(id) {
                self.claimed.push(*id);
            }
        }
        if let Some(campaign_id) = self.job.campaign_id
            && !self.resumed
            && !claim.claimed.is_empty()
        {
            ctx.db
                .campaigns()
                .resume_campaign_if_paused(campaign_id, ctx.now_ms())
                .await?;
            self.resumed = true;
        }
        let claimed: Vec<&MessageRow> = group
            .iter()
            .filter(|row| claim.claimed.contains(&row.id))
            .collect();
        // Claimed before the wait for a slot of the sender, so that the batch sends as soon as one comes free
        // (its claim no longer waits for the writer in the sender's place). When none comes free in time (its
        // server may hang), the claims go back with the batch, which waits its turn in the queue, not in a
        // worker.
        let _slot = match config {
            Some(config) if !claimed.is_empty() => match SendStep::SlotWait
                .time(slots.acquire(user.id, config.id, SENDER_SLOT_WAIT))
                .await
            {
                Some(slot) => {
                    let turn = Duration::from_secs(ctx.settings.sending.batch_seconds.max(1));
                    // The turn is the batch's, whichever of its senders' slots it holds.
                    self.turn_ends.get_or_insert(Instant::now() + turn);
                    Some(slot)
                }
                None => return Ok(Some(Stop::SenderBusy)),
            },
            _ => None,
        };
        for chunk in claimed.chunks(HANDED_OVER_TOGETHER) {
            if stopping() {
                return Ok(Some(Stop::HandOver));
            }
            if self.turn_is_over() {
                return Ok(Some(Stop::TurnOver));
            }
            if let Some(stop) = self
                .send_chunk(chunk, user, config, recipients, stopping)
                .await?
            {
                return Ok(Some(stop));
            }
        }
        // The unclaimed rest waits for room (messages another worker took are passed over then).
        if claim.no_room {
            let unclaimed = ids
                .iter()
                .copied()
                .filter(|id| !claim.claimed.contains(id))
                .collect();
            return Ok(Some(Stop::NoRoom {
                quota: claim.quota_reached,
                unclaimed,
            }));
        }
        Ok(None)
    }
}

/// The recipients of a group's messages, by business.
pub(super) async fn recipients(
    ctx: &crate::Context,
    user: &User,
    group: &[MessageRow],
) -> anyhow::Result<HashMap<i64, Recipient>> {
    let business_ids: Vec<i64> = group.iter().filter_map(|row| row.business_id).collect();
    // A batch is one template's messages: their icebreakers in its language (a first email's body is its
    // template's, read when it is sent).
    let language = match group.iter().find_map(|row| row.html_body.as_deref()) {
        Some(body) => crate::writing::icebreaker::language_of(body),
        None => match group.iter().find_map(|row| row.template_id) {
            Some(template_id) => ctx
                .db
                .campaigns()
                .template_content(template_id, user.id)
                .await?
                .and_then(|(_, body)| crate::writing::icebreaker::language_of(&body)),
            None => None,
        },
    };
    Ok(ctx
        .db
        .discovery()
        .recipients(
            &business_ids,
            user.id,
            language,
            crate::platform::clock::date_of(ctx.now_ms()),
        )
        .await?)
}
