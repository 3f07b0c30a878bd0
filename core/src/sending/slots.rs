//! Per-sender and per-user concurrency and pace of one process, and the lease its claims are made under. A sender
//! whose server hangs holds at most `sending.sender_concurrency` send batches, and the users share the send workers
//! fairly: each holds at most an even share among the users sending and one more (half for a user alone), and one
//! worker stays free for a user who holds none (`sending.user_concurrency`, when set, caps a user further). A batch
//! that finds its sender full, or its user (sending alone) at its share, waits up to a second for a slot (a user over
//! its share beside other users, 100 ms), then hands its messages back for a little later, so a hung sender never keeps
//! every worker and no number of users ever keeps another user's mail waiting. Every worker process applies the
//! same rule to its own workers, on either database.

use std::sync::Arc;
use std::time::Duration;

use crate::platform::security::random_token;
use crate::platform::shares::{Slot, SlotTable};
use crate::sending::handover::HandOverLog;
use crate::sending::pacing::Pacer;

/// This process's sending: the lease its claims are made under (renewed while it lives, so a crashed process's
/// messages are recognised), and the send batches running per sender and per user.
#[derive(Debug, Clone)]
pub struct SenderSlots {
    lease: Arc<str>,
    /// Scopes: senders, users.
    table: SlotTable<2>,
    /// Each sender's pace (see `pacing`).
    pacer: Pacer,
    /// Hand-overs, committed together across this process's connections.
    handovers: HandOverLog,
}

/// How many send batches one sender, and one user's senders together, run at once in a process, and the send
/// workers the users share fairly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotLimits {
    pub per_sender: usize,
    pub per_user: usize,
    pub send_workers: usize,
}

impl SlotLimits {
    /// `per_user` 0: no cap but the fair share of the process's `send_workers`; all at least one.
    pub fn new(per_sender: usize, per_user: usize, send_workers: usize) -> Self {
        let send_workers = send_workers.max(1);
        let per_user = if per_user == 0 {
            send_workers
        } else {
            per_user
        };
        Self {
            per_sender: per_sender.max(1),
            per_user: per_user.max(1),
            send_workers,
        }
    }
}

/// A send batch's slot of its sender and its user, given back when dropped.
pub type SenderSlot = Slot<2>;

impl SenderSlots {
    pub fn new(limits: SlotLimits, pacer: Pacer) -> Self {
        Self {
            lease: format!("{}-{}", std::process::id(), random_token(9)).into(),
            table: SlotTable::new([limits.per_sender, limits.per_user])
                .fair(1, limits.send_workers),
            pacer,
            handovers: HandOverLog::default(),
        }
    }

    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }

    /// Where this process's connections put their hand-overs on record.
    pub fn handovers(&self) -> &HandOverLog {
        &self.handovers
    }

    /// The lease this process claims messages under.
    pub fn lease(&self) -> &str {
        &self.lease
    }

    /// A slot of `user_id`'s sender `config_id`, held until the guard is dropped. When the sender's or the user's
    /// slots are all taken this waits up to `wait` for one: a working sender gives one back within milliseconds,
    /// so its batches queue up here rather than going back to the queue, while a sender whose server hangs keeps
    /// them for at most `wait`. Another user's batch is never held up by a full user: it takes the first slot
    /// given back, and a user over their fair share waits for theirs. None when no slot came free in time.
    pub async fn acquire(
        &self,
        user_id: i64,
        config_id: i64,
        wait: Duration,
    ) -> Option<SenderSlot> {
        self.table.acquire([config_id, user_id], Some(wait)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_sender_waits_for_a_slot_given_back_and_not_past_the_wait() {
        let clock = crate::platform::clock::ManualClock::at(0);
        let slots = SenderSlots::new(SlotLimits::new(1, 4, 8), Pacer::off(clock));
        let held = slots
            .acquire(1, 7, Duration::ZERO)
            .await
            .expect("a free slot");
        // Another sender is not held up by this one.
        assert!(slots.acquire(1, 8, Duration::ZERO).await.is_some());
        // Nothing given back: no slot within the wait.
        assert!(
            slots
                .acquire(1, 7, Duration::from_millis(50))
                .await
                .is_none()
        );
        // Given back during the wait: the waiting batch gets it.
        let giving_back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            drop(held);
        });
        let slot = slots.acquire(1, 7, Duration::from_secs(5)).await;
        assert!(slot.is_some());
        giving_back.await.unwrap();
        assert!(
            slots.acquire(1, 7, Duration::ZERO).await.is_none(),
            "one slot only"
        );
    }

    #[tokio::test]
    async fn one_users_senders_together_hold_at_most_their_share() {
        let clock = crate::platform::clock::ManualClock::at(0);
        // Eight send workers: alone, her share is four, whatever the number of senders.
        let limits = SlotLimits::new(4, 0, 8);
        assert_eq!(
            SlotLimits::new(4, 0, 8).per_user,
            8,
            "no cap but the fair share"
        );
        assert_eq!(SlotLimits::new(4, 0, 0).per_user, 1, "at least one");
        let slots = SenderSlots::new(limits, Pacer::off(clock));
        let mut eves = Vec::new();
        for config_id in [7, 7, 8, 8] {
            eves.push(
                slots
                    .acquire(1, config_id, Duration::ZERO)
                    .await
                    .expect("within her share"),
            );
        }
        assert!(
            slots.acquire(1, 9, Duration::ZERO).await.is_none(),
            "a third sender adds no share"
        );
        // Another user is not held up by her.
        let ada = slots.acquire(2, 10, Duration::ZERO).await;
        assert!(ada.is_some());
        drop(eves.pop());
        assert!(
            slots.acquire(1, 9, Duration::ZERO).await.is_none(),
            "with Ada sending, Eve's share is two of eight"
        );
        drop(ada);
        assert!(
            slots.acquire(1, 9, Duration::ZERO).await.is_some(),
            "alone again, a slot given back is hers again"
        );
    }
}
