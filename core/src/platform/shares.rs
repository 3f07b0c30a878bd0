//! Fair shares of a process's scarce workers: a slot is taken in several scopes at once (a sender and its user, a
//! user and the whole process), each scope with its own limit per key, so one key never holds more than its share
//! and whoever is under every limit takes the next slot given back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

/// Slots counted in `N` scopes: `limits[i]` per key of scope `i`.
#[derive(Debug, Clone)]
pub struct SlotTable<const N: usize> {
    limits: [usize; N],
    running: Arc<Mutex<[HashMap<i64, usize>; N]>>,
    /// Woken whenever a slot is given back.
    released: Arc<Notify>,
}

impl<const N: usize> SlotTable<N> {
    /// Each limit at least one.
    pub fn new(limits: [usize; N]) -> Self {
        Self {
            limits: limits.map(|limit| limit.max(1)),
            running: Arc::new(Mutex::new(std::array::from_fn(|_| HashMap::new()))),
            released: Arc::default(),
        }
    }

    /// A slot for `keys` (one per scope), held until the guard is dropped. When a scope is full this waits for a
    /// slot given back, up to `wait` (None: as long as it takes); None when none came free in time.
    pub async fn acquire(&self, keys: [i64; N], wait: Option<Duration>) -> Option<Slot<N>> {
        let deadline = wait.map(|wait| tokio::time::Instant::now() + wait);
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            // Registered before the check, so a slot given back in between still wakes this wait.
            released.as_mut().enable();
            if let Some(slot) = self.take(keys) {
                return Some(slot);
            }
            match deadline {
                Some(deadline) => {
                    if tokio::time::timeout_at(deadline, released).await.is_err() {
                        return None;
                    }
                }
                None => released.await,
            }
        }
    }

    fn take(&self, keys: [i64; N]) -> Option<Slot<N>> {
        let mut running = self
            .running
            .lock()
            .expect("the slot table is never poisoned");
        let full = (0..N).any(|scope| {
            running[scope].get(&keys[scope]).copied().unwrap_or(0) >= self.limits[scope]
        });
        if full {
            return None;
        }
        for (scope, key) in keys.iter().enumerate() {
            *running[scope].entry(*key).or_default() += 1;
        }
        Some(Slot {
            table: self.clone(),
            keys,
        })
    }
}

/// A taken slot, given back when dropped.
pub struct Slot<const N: usize> {
    table: SlotTable<N>,
    keys: [i64; N],
}

impl<const N: usize> Drop for Slot<N> {
    fn drop(&mut self) {
        let mut running = self
            .table
            .running
            .lock()
            .expect("the slot table is never poisoned");
        for (scope, key) in self.keys.iter().enumerate() {
            if let Some(count) = running[scope].get_mut(key) {
                *count -= 1;
                if *count == 0 {
                    running[scope].remove(key);
                }
            }
        }
        self.table.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_slot_needs_room_in_every_scope_and_a_wait_ends() {
        // Scope 0: the whole process (one key), two slots; scope 1: one per user.
        let table = SlotTable::new([2, 1]);
        let eve = table
            .acquire([0, 1], Some(Duration::ZERO))
            .await
            .expect("room");
        assert!(
            table
                .acquire([0, 1], Some(Duration::from_millis(30)))
                .await
                .is_none(),
            "Eve's share is one"
        );
        let ada = table
            .acquire([0, 2], None)
            .await
            .expect("Ada is under both limits");
        assert!(
            table.acquire([0, 3], Some(Duration::ZERO)).await.is_none(),
            "the process is full"
        );
        let giving_back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(30)).await;
            drop(eve);
        });
        assert!(
            table.acquire([0, 3], None).await.is_some(),
            "the slot Eve gave back"
        );
        giving_back.await.unwrap();
        drop(ada);
    }
}
