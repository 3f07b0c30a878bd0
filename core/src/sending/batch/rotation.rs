//! A batch's pooled messages (issue 79): each goes to the sender of the campaign's pool with the most room left today
//! (`pool::allocate`; a sender's share goes out on one connection), at that sender's pace, claimed under its cap and
//! given that sender in the claim. What no sender has room for today waits for tomorrow; what a sender that is down
//! or turned off had claimed goes back to the others; a campaign pauses only when its pool has no sender left that
//! can send.
//!
//! The thread rule is here too: a follow-up or an answer goes only from the mailbox of its thread, and waits, with
//! why, while that mailbox is removed, out of rotation, turned off, or (a follow-up) no longer in the pool.

use super::groups::recipients;
use super::{Batch, SENDER_DOWN_RETRY_MS, Stop, Stopping};
use crate::accounts::User;
use crate::platform::clock::DAY_MS;
use crate::platform::telemetry::{self, PauseReason};
use crate::sending::messages::{MessageKind, MessageRow, Share};
use crate::sending::outgoing::Hold;
use crate::sending::pool::{Standing, Usage, allocate};
use crate::sending::senders::EmailConfig;
use crate::sending::slots::SenderSlots;
use crate::sending::steps::SendStep;

/// Why pooled messages wait for tomorrow.
pub const ALL_AT_CAP: &str =
    "Waiting: every sender of this campaign sent its cap for today; the rest go tomorrow";

/// A message's sender as a batch groups them: its pool, or its own sender (None: the outbox).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SenderKey {
    Pool,
    Own(Option<i64>),
}

impl MessageRow {
    pub(super) fn sender_key(&self) -> SenderKey {
        if self.pooled && self.campaign_id.is_some() {
            SenderKey::Pool
        } else {
            SenderKey::Own(self.config_id)
        }
    }
}

impl Batch<'_> {
    /// Sends a campaign's pooled first emails from the senders of its pool.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn send_pooled(
        &mut self,
        campaign_id: i64,
        user: &User,
        ids: Vec<i64>,
        group: &[MessageRow],
        monthly_limit: i64,
        slots: &SenderSlots,
        stopping: Stopping<'_>,
    ) -> anyhow::Result<Option<Stop>> {
        let ctx = self.ctx;
        let now = ctx.now_ms();
        let pool = ctx
            .db
            .sending()
            .effective_pool(user.id, campaign_id)
            .await?;
        let pool_ids: Vec<i64> = pool.iter().map(|config| config.id).collect();
        let usage = ctx.db.sending().sender_usage(&pool_ids, now).await?;
        let senders: Vec<(EmailConfig, Standing, i64)> = pool
            .into_iter()
            .map(|config| {
                let used = usage.get(&config.id).copied().unwrap_or_default();
                let standing = Standing::of(&config, used, now);
                let room = if config.can_send() {
                    standing.room(used)
                } else {
                    0
                };
                (config, standing, room)
            })
            .collect();
        if !senders.iter().any(|(config, _, _)| config.can_send()) {
            self.wait_for_senders(campaign_id, &senders, &ids).await?;
            return Ok(None);
        }
        let rooms: Vec<i64> = senders.iter().map(|(_, _, room)| *room).collect();
        let shares = allocate(ids.len(), &rooms);
        let open_minutes = self.settings.window.window().open_minutes_a_day();
        let mut rest = ids.as_slice();
        let (mut paced, mut paced_until) = (Vec::new(), i64::MAX);
        // Each sender's share that may go now, at its pace.
        let mut going: Vec<(&EmailConfig, i64, Vec<i64>)> = Vec::new();
        for ((config, standing, _), share) in senders.iter().zip(shares) {
            if share == 0 {
                continue;
            }
            let (mine, others) = rest.split_at(share);
            rest = others;
            let mut mine = mine.to_vec();
            let gap = slots.pacer().gap(standing.cap_today as i32, open_minutes);
            let admitted = slots.pacer().admit(config.id, gap, mine.len());
            if let Some(next_at) = admitted.next_at {
                paced.extend(mine.split_off(admitted.now));
                paced_until = paced_until.min(next_at);
            }
            if !mine.is_empty() {
                going.push((config, standing.cap_today, mine));
            }
        }
        // One claim for every sender's share: the user's quota and each sender's cap in one transaction.
        let claim_shares: Vec<Share> = going
            .iter()
            .map(|(config, cap, mine)| Share {
                config_id: Some(config.id),
                ids: mine,
                daily_cap: *cap,
            })
            .collect();
        let claims = SendStep::Claim
            .time(ctx.db.sending().claim_for_senders(
                user.id,
                &claim_shares,
                monthly_limit,
                slots.lease(),
                ctx.now_ms(),
            ))
            .await?;
        // All of them are this batch's now: whatever ends it early hands back those not sent yet.
        for claim in &claims {
            self.claimed.extend(&claim.claimed);
        }
        let recipients = recipients(ctx, user, group).await?;
        let (mut retry, mut retry_at) = (Vec::new(), now);
        let mut over_cap = Vec::new();
        for ((config, _, mine), claim) in going.iter().zip(&claims) {
            match self
                .send_claimed(
                    user,
                    Some(*config),
                    (mine, claim),
                    group,
                    &recipients,
                    slots,
                    stopping,
                )
                .await?
            {
                None => {}
                // Its cap filled meanwhile (another worker): the rest wait for a sender with room.
                Some(Stop::NoRoom {
                    quota: false,
                    unclaimed,
                }) => over_cap.extend(unclaimed),
                // Down or turned off: what it claimed goes back to the others, soon (at once when it is out).
                Some(
                    Stop::SenderDown { reason, requeued }
                    | Stop::SenderRefused { reason, requeued },
                ) => {
                    retry.extend(self.release_claimed(&claim.claimed, &reason).await?);
                    retry.push(requeued);
                    let out = !ctx
                        .db
                        .sending()
                        .load_email_config(config.id)
                        .await?
                        .is_some_and(|config| config.can_send());
                    if !out {
                        retry_at = retry_at.max(now + SENDER_DOWN_RETRY_MS);
                    }
                }
                stop => return Ok(stop),
            }
        }
        if !paced.is_empty() {
            self.later(campaign_id, paced, paced_until, Hold::Pace)
                .await?;
        }
        if !retry.is_empty() {
            // Those that were down or turned off may have been the last that could send.
            let mut now_senders = Vec::with_capacity(senders.len());
            for (config, _, _) in &senders {
                let current = ctx
                    .db
                    .sending()
                    .load_email_config(config.id)
                    .await?
                    .unwrap_or_else(|| config.clone());
                let standing = Standing::of(&current, Usage::default(), now);
                now_senders.push((current, standing, 0));
            }
            if now_senders.iter().any(|(config, _, _)| config.can_send()) {
                self.later(campaign_id, retry, retry_at, Hold::Retry)
                    .await?;
            } else {
                self.wait_for_senders(campaign_id, &now_senders, &retry)
                    .await?;
            }
        }
        let mut waiting: Vec<i64> = rest.to_vec();
        waiting.extend(over_cap);
        if !waiting.is_empty() {
            let tomorrow = (now.div_euclid(DAY_MS) + 1) * DAY_MS;
            self.hold(&waiting, ALL_AT_CAP).await?;
            self.later(campaign_id, waiting, tomorrow, Hold::DailyCap)
                .await?;
        }
        Ok(None)
    }

    /// No sender of the pool can send: the campaign pauses with each one's reason, and `ids` wait, queued, for a
    /// sender (putting one back or changing the pool gives them jobs again).
    async fn wait_for_senders(
        &mut self,
        campaign_id: i64,
        senders: &[(EmailConfig, Standing, i64)],
        ids: &[i64],
    ) -> anyhow::Result<()> {
        let reason = no_sender_left(senders);
        self.ctx
            .db
            .sending()
            .pause_for_senders(campaign_id, &reason, self.ctx.now_ms())
            .await?;
        telemetry::campaign_paused(PauseReason::Sender);
        self.done.extend(ids);
        Ok(())
    }

    /// Why a follow-up or an answer on `config`, the mailbox of its thread, cannot go now; None when it can.
    pub(super) async fn thread_waits(
        &mut self,
        campaign_id: i64,
        config: &EmailConfig,
        kind: MessageKind,
    ) -> anyhow::Result<Option<String>> {
        let address = &config.send_from;
        if config.removed_at.is_some() {
            return Ok(Some(format!(
                "Waiting: {address}, the mailbox of this prospect's thread, was removed; its follow-ups never go from another mailbox"
            )));
        }
        if let Some(reason) = &config.out_reason {
            return Ok(Some(format!(
                "Waiting: {address}, the mailbox of this prospect's thread, is out of rotation ({reason}); put it back to send"
            )));
        }
        if !config.is_active {
            let why = config.status_message.as_deref().unwrap_or("turned off");
            return Ok(Some(format!(
                "Waiting: {address}, the mailbox of this prospect's thread, is turned off ({why}); connect it again to send"
            )));
        }
        if kind == MessageKind::FollowUp {
            let pool = self.ctx.db.sending().campaign_pool(campaign_id).await?;
            if !pool.is_empty() && !pool.iter().any(|member| member.id == config.id) {
                return Ok(Some(format!(
                    "Waiting: {address}, the mailbox of this prospect's thread, is no longer one of this campaign's senders; add it back to send"
                )));
            }
        }
        Ok(None)
    }

    /// Leaves messages queued with why they wait (no job: what they wait for gives them one).
    pub(super) async fn hold(&mut self, ids: &[i64], why: &str) -> anyhow::Result<()> {
        self.ctx.db.sending().hold_messages(ids, why).await?;
        self.done.extend(ids);
        Ok(())
    }

    /// Hands one sender's claims of this batch that it did not finish back to the queue with `why`; returns their
    /// ids.
    async fn release_claimed(&mut self, claimed: &[i64], why: &str) -> anyhow::Result<Vec<i64>> {
        let unsent: Vec<i64> = self
            .claimed
            .iter()
            .copied()
            .filter(|id| claimed.contains(id))
            .collect();
        self.claimed.retain(|id| !unsent.contains(id));
        self.ctx
            .db
            .sending()
            .release_claims(&unsent, Some(why), crate::sending::recovery::UNDER_WAY)
            .await?;
        Ok(unsent)
    }
}

/// Why a campaign pauses with no sender left: each sender of its pool and why it cannot send.
fn no_sender_left(senders: &[(EmailConfig, Standing, i64)]) -> String {
    if senders.is_empty() {
        return "Paused: this campaign has no sender left. Choose one in step 5 to send the rest."
            .into();
    }
    let each: Vec<String> = senders
        .iter()
        .map(|(config, standing, _)| {
            let why = standing.reason.as_deref().unwrap_or("cannot send");
            format!("{} ({why})", config.send_from)
        })
        .collect();
    format!(
        "Paused: no sender of this campaign can send: {}. Put one back or choose another to send the rest.",
        each.join("; ")
    )
}
