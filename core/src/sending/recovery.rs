//! What a crashed worker left behind. Each worker process claims messages under a lease it renews while it lives;
//! when a lease expires, any worker (on its lease timer) settles the messages still in sending under it by how far
//! each got (see `SendingStore::hand_over`): one never handed over goes back to the queue with a new job, so nobody is lost;
//! one handed over in an earlier window than the last two on its connection was taken by the server (a later
//! window's record unmarks those it did not take), so it is sent; and those of the last two windows handed over on
//! each connection (the one under way, and the one recorded ahead of it or before it) may have arrived: they are
//! never sent again and show as uncertain. Windows are as small as the connection's pace allows (see
//! `batch::record`), so what is in doubt is about what was on the wire.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::Context;
use crate::platform::jobs::SendCampaignEmail;
use crate::platform::queue::QueueError;
use crate::sending::messages::Interrupted;
use crate::sending::outgoing::{Dispatch, queue_sending};

/// Why a message that a crashed worker never handed over waits again.
const NEVER_TRIED: &str = "The worker sending it stopped before trying it; it is sent again";

/// Why a message whose content was under way when its worker died is not sent again.
pub const UNDER_WAY: &str = "The worker stopped while this message was being handed to its server: it may have arrived, so it is not sent \
     again";

/// A claim made before leases existed (no `claimed_by`) older than this cannot belong to a live send.
const PRE_LEASE_AFTER_MS: i64 = 10 * 60 * 1000;

/// What one settling found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Never handed over: queued again.
    pub requeued: usize,
    /// Taken by their server before the worker died: sent.
    pub sent: usize,
    /// Under way when the worker died: may have arrived.
    pub uncertain: usize,
}

impl Recovered {
    pub fn any(&self) -> bool {
        self.requeued + self.sent + self.uncertain > 0
    }
}

/// Settles the messages of workers whose lease expired, and finishes the campaigns they leave with nothing to send;
/// first forgets the hand-overs of messages no longer in sending.
pub async fn recover_interrupted_sends(ctx: &Context) -> anyhow::Result<Recovered> {
    let now = ctx.now_ms();
    // What earlier settlings, failed sends and deleted messages left on record is no longer read.
    ctx.db.sending().sweep_claims().await?;
    ctx.db.sending().sweep_hand_overs().await?;
    let interrupted = ctx
        .db
        .sending()
        .interrupted_sends(now - PRE_LEASE_AFTER_MS, now)
        .await?;
    let mut recovered = Recovered::default();
    if interrupted.is_empty() {
        return Ok(recovered);
    }
    let last_on_connection = last_windows(&interrupted);
    let mut campaigns = BTreeSet::new();
    let mut requeued: BTreeMap<Option<i64>, Vec<i64>> = BTreeMap::new();
    for message in &interrupted {
        // A claim from before leases has no record of how far it got.
        let under_way = message.claimed_by.is_none()
            || message.handed_by.as_ref().is_some_and(|connection| {
                last_on_connection
                    .get(connection.as_str())
                    .zip(message.handed_seq)
                    .is_some_and(|(last, seq)| last.contains(&seq))
            });
        let settled = if under_way {
            let campaign = ctx
                .db
                .sending()
                .mark_uncertain(message.id, UNDER_WAY, None)
                .await?;
            recovered.uncertain += usize::from(campaign.is_some());
            campaign
        } else if message.handed_by.is_some() {
            let campaign = ctx.db.sending().recover_as_sent(message.id, now).await?;
            recovered.sent += usize::from(campaign.is_some());
            campaign
        } else {
            let campaign = ctx
                .db
                .sending()
                .recover_to_queue(message.id, NEVER_TRIED)
                .await?;
            if let Some(campaign) = campaign {
                requeued.entry(campaign).or_default().push(message.id);
                recovered.requeued += 1;
            }
            campaign
        };
        campaigns.extend(settled.flatten());
    }
    let tag = format!("recovered:{now}");
    for (campaign_id, ids) in requeued {
        let dispatch = Dispatch {
            tag: &tag,
            ..Dispatch::default()
        };
        queue_sending(&ctx.queue, campaign_id, &ids, dispatch).await?;
    }
    for campaign_id in campaigns {
        ctx.db
            .sending()
            .complete_campaign_if_done(campaign_id, now)
            .await?;
    }
    Ok(recovered)
}

/// Gives a sending job to the messages waiting with none left: written, and their process died before queueing
/// their job (a launch, a follow-up's tick, an answer). Only messages queued before `before` are looked at, so a
/// producer that is between its two steps right now is left to finish; a paused campaign's messages wait for its
/// resume. Returns how many messages got a job.
pub async fn requeue_waiting_messages(ctx: &Context, before: i64) -> Result<usize, QueueError> {
    let waiting = ctx.db.sending().waiting_messages(before).await?;
    if waiting.is_empty() {
        return Ok(0);
    }
    let queued = ctx
        .queue
        .unfinished_ids::<SendCampaignEmail>("message_ids")
        .await?;
    let mut orphans: BTreeMap<Option<i64>, Vec<i64>> = BTreeMap::new();
    for (id, campaign_id) in waiting.into_iter().filter(|(id, _)| !queued.contains(id)) {
        orphans.entry(campaign_id).or_default().push(id);
    }
    let tag = format!("resumed:{}", ctx.now_ms());
    let mut requeued = 0;
    for (campaign_id, ids) in orphans {
        for chunk in ids.chunks(SendCampaignEmail::BATCH) {
            let dispatch = Dispatch {
                tag: &tag,
                ..Dispatch::default()
            };
            if queue_sending(&ctx.queue, campaign_id, chunk, dispatch).await? > 0 {
                requeued += chunk.len();
            }
        }
    }
    Ok(requeued)
}

/// The two windows handed over last on each connection: the one whose content was under way when the worker died,
/// and the one before it (the next window's record is written while a window goes out, so the last on record may
/// not have begun). Windows are numbered in the order they were recorded.
fn last_windows(interrupted: &[Interrupted]) -> HashMap<&str, [i64; 2]> {
    let mut last: HashMap<&str, [i64; 2]> = HashMap::new();
    for message in interrupted {
        if let (Some(connection), Some(seq)) = (&message.handed_by, message.handed_seq) {
            let [latest, before] = last.entry(connection.as_str()).or_insert([seq, seq]);
            if seq > *latest {
                *before = *latest;
                *latest = seq;
            } else if seq < *latest && (seq > *before || *before == *latest) {
                *before = seq;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(id: i64, handed: Option<(&str, i64)>) -> Interrupted {
        Interrupted {
            id,
            claimed_by: Some("lease".into()),
            handed_by: handed.map(|(connection, _)| connection.to_string()),
            handed_seq: handed.map(|(_, seq)| seq),
        }
    }

    #[test]
    fn only_the_last_two_windows_handed_on_each_connection_are_in_doubt() {
        let interrupted = [
            message(1, Some(("lease/1", 10))),
            message(2, Some(("lease/1", 12))),
            message(3, Some(("lease/1", 12))),
            message(6, Some(("lease/1", 9))),
            message(7, Some(("lease/1", 11))),
            message(4, Some(("lease/2", 11))),
            message(5, None),
        ];
        let last = last_windows(&interrupted);
        assert_eq!(last.len(), 2);
        assert_eq!(last["lease/1"], [12, 11]);
        assert_eq!(last["lease/2"], [11, 11], "one window only");
    }
}
