//! Per-sender concurrency and pace of one process, and the lease its claims are made under. A sender whose server
//! hangs holds at most `sending.sender_concurrency` send batches; a batch that finds its sender full waits up to a
//! second for a slot, then hands its messages back for a little later, so a hung sender never keeps every worker.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use crate::platform::security::random_token;
use crate::sending::pacing::Pacer;

/// This process's sending: the lease its claims are made under (renewed while it lives, so a crashed process's
/// messages are recognised), and the send batches running per sender (a sender whose server hangs holds at most
/// `sending.sender_concurrency` workers; a batch that finds its sender full waits briefly for a slot, then hands its
/// messages back for a little later, so every other sender keeps its workers).
#[derive(Debug, Clone)]
pub struct SenderSlots {
    lease: Arc<str>,
    limit: usize,
    running: Arc<Mutex<HashMap<i64, usize>>>,
    /// Woken whenever a slot is given back.
    released: Arc<Notify>,
    /// Each sender's pace (see `pacing`).
    pacer: Pacer,
}

impl SenderSlots {
    pub fn new(limit: usize, pacer: Pacer) -> Self {
        Self {
            lease: format!("{}-{}", std::process::id(), random_token(9)).into(),
            limit: limit.max(1),
            running: Arc::default(),
            released: Arc::default(),
            pacer,
        }
    }

    pub fn pacer(&self) -> &Pacer {
        &self.pacer
    }

    /// The lease this process claims messages under.
    pub fn lease(&self) -> &str {
        &self.lease
    }

    /// A slot of `config_id`, held until the guard is dropped. When the sender's slots are all taken this waits up
    /// to `wait` for one: a working sender gives one back within milliseconds, so its batches queue up here rather
    /// than going back to the queue, while a sender whose server hangs keeps them for at most `wait`. None when no
    /// slot came free in time.
    pub async fn acquire(&self, config_id: i64, wait: Duration) -> Option<SenderSlot> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            // Registered before the check, so a slot given back in between still wakes this wait.
            released.as_mut().enable();
            if let Some(slot) = self.take(config_id) {
                return Some(slot);
            }
            if tokio::time::timeout_at(deadline, released).await.is_err() {
                return None;
            }
        }
    }

    fn take(&self, config_id: i64) -> Option<SenderSlot> {
        let mut running = self
            .running
            .lock()
            .expect("the slot table is never poisoned");
        let count = running.entry(config_id).or_default();
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(SenderSlot {
            slots: self.clone(),
            config_id,
        })
    }
}

pub struct SenderSlot {
    slots: SenderSlots,
    config_id: i64,
}

impl Drop for SenderSlot {
    fn drop(&mut self) {
        let mut running = self
            .slots
            .running
            .lock()
            .expect("the slot table is never poisoned");
        if let Some(count) = running.get_mut(&self.config_id) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.config_id);
            }
        }
        self.slots.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_sender_waits_for_a_slot_given_back_and_not_past_the_wait() {
        let clock = crate::platform::clock::ManualClock::at(0);
        let slots = SenderSlots::new(1, Pacer::off(clock));
        let held = slots.acquire(7, Duration::ZERO).await.expect("a free slot");
        // Another sender is not held up by this one.
        assert!(slots.acquire(8, Duration::ZERO).await.is_some());
        // Nothing given back: no slot within the wait.
        assert!(slots.acquire(7, Duration::from_millis(50)).await.is_none());
        // Given back during the wait: the waiting batch gets it.
        let giving_back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            drop(held);
        });
        let slot = slots.acquire(7, Duration::from_secs(5)).await;
        assert!(slot.is_some());
        giving_back.await.unwrap();
        assert!(
            slots.acquire(7, Duration::ZERO).await.is_none(),
            "one slot only"
        );
    }
}
