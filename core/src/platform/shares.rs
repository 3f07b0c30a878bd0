//! Fair shares of a process's scarce workers: a slot is taken in several scopes at once (a sender and its user, a
//! user and the whole process), each scope with its own limit per key, so one key never holds more than its share
//! and whoever is under every limit takes the next slot given back. One scope may also be shared fairly among its
//! keys (see `SlotTable::fair`): however many keys compete, each holds at most an even share of the workers and one
//! worker stays free for a key that holds none.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

/// How long a key over its fair share waits for a slot, at most, while other keys hold slots too: others may be
/// waiting in the queue, unseen here, for the worker this wait holds. A key alone waits as a full scope does (its own
/// batches come free one after another; a newcomer's job waits at most that long for a worker).
const FAIR_SHARE_WAIT: Duration = Duration::from_millis(100);

/// Why no slot was taken.
enum Refused {
    /// A scope's limit for its key.
    Full,
    /// The key holds its fair share; `alone`: no other key holds a slot of the scope.
    FairShare { alone: bool },
}

/// Slots counted in `N` scopes: `limits[i]` per key of scope `i`.
#[derive(Debug, Clone)]
pub struct SlotTable<const N: usize> {
    limits: [usize; N],
    /// The scope shared fairly, and the workers it shares.
    fair: Option<(usize, usize)>,
    running: Arc<Mutex<[HashMap<i64, usize>; N]>>,
    /// Woken whenever a slot is given back.
    released: Arc<Notify>,
}

impl<const N: usize> SlotTable<N> {
    /// Each limit at least one.
    pub fn new(limits: [usize; N]) -> Self {
        Self {
            limits: limits.map(|limit| limit.max(1)),
            fair: None,
            running: Arc::new(Mutex::new(std::array::from_fn(|_| HashMap::new()))),
            released: Arc::default(),
        }
    }

    /// Shares scope `scope` fairly among its keys over `workers` workers: a key that holds no slot may take one
    /// while any is free; a key that holds some may take another only while it holds less than an even share
    /// among the keys holding slots and one more (half for a key alone, a third each for two), and while one
    /// worker would stay free for a newcomer. So any number of keys whose work hangs never keep a new key waiting,
    /// and their shares shrink as more of them compete.
    pub fn fair(mut self, scope: usize, workers: usize) -> Self {
        self.fair = Some((scope, workers.max(1)));
        self
    }

    /// A slot for `keys` (one per scope), held until the guard is dropped. When a scope is full this waits for a
    /// slot given back, up to `wait` (None: as long as it takes); None when none came free in time.
    pub async fn acquire(&self, keys: [i64; N], wait: Option<Duration>) -> Option<Slot<N>> {
        let started = tokio::time::Instant::now();
        let mut deadline = wait.map(|wait| started + wait);
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            // Registered before the check, so a slot given back in between still wakes this wait.
            released.as_mut().enable();
            match self.take(keys) {
                Ok(slot) => return Some(slot),
                // Over its fair share beside other keys, a key waits briefly (see `FAIR_SHARE_WAIT`).
                Err(Refused::FairShare { alone: false }) => {
                    let brief = started + FAIR_SHARE_WAIT;
                    deadline = Some(deadline.map_or(brief, |deadline| deadline.min(brief)));
                }
                Err(Refused::FairShare { alone: true }) => {}
                Err(Refused::Full) => {}
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

    fn take(&self, keys: [i64; N]) -> Result<Slot<N>, Refused> {
        let mut running = self
            .running
            .lock()
            .expect("the slot table is never poisoned");
        let full = (0..N).any(|scope| {
            running[scope].get(&keys[scope]).copied().unwrap_or(0) >= self.limits[scope]
        });
        if full {
            return Err(Refused::Full);
        }
        if !self.fair_share_left(&running, keys) {
            let alone = self.fair.is_some_and(|(scope, _)| {
                running[scope].keys().all(|holder| *holder == keys[scope])
            });
            return Err(Refused::FairShare { alone });
        }
        for (scope, key) in keys.iter().enumerate() {
            *running[scope].entry(*key).or_default() += 1;
        }
        Ok(Slot {
            table: self.clone(),
            keys,
        })
    }
}

impl<const N: usize> SlotTable<N> {
    fn fair_share_left(&self, running: &[HashMap<i64, usize>; N], keys: [i64; N]) -> bool {
        let Some((scope, workers)) = self.fair else {
            return true;
        };
        let holders = &running[scope];
        let total: usize = holders.values().sum();
        match holders.get(&keys[scope]).copied().unwrap_or(0) {
            0 => total < workers,
            held => {
                // An even share among the keys holding slots and one more that may come.
                let share = (workers / (holders.len() + 1)).max(1);
                held < share && total + 2 <= workers
            }
        }
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
    async fn a_key_alone_over_its_share_waits_for_its_own_slot_beside_others_only_briefly() {
        // Scope 0: senders; scope 1: users, shared fairly over four workers (alone, a user's share is two).
        let table = SlotTable::new([100, 100]).fair(1, 4);
        let first = table.acquire([1, 7], Some(Duration::ZERO)).await.unwrap();
        let _second = table.acquire([2, 7], Some(Duration::ZERO)).await.unwrap();
        // Alone, the third batch waits for one of its own to finish, past the brief wait (a pool's batches).
        let giving_back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(first);
        });
        assert!(
            table
                .acquire([3, 7], Some(Duration::from_secs(5)))
                .await
                .is_some()
        );
        giving_back.await.unwrap();
        // Beside another user it waits only briefly: the worker it holds may be that user's.
        let _other = table.acquire([4, 8], Some(Duration::ZERO)).await.unwrap();
        let started = tokio::time::Instant::now();
        assert!(
            table
                .acquire([5, 7], Some(Duration::from_secs(5)))
                .await
                .is_none()
        );
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }

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

    #[tokio::test]
    async fn a_fair_scope_keeps_a_worker_for_a_newcomer_and_shrinks_shares_as_keys_compete() {
        // Scope 0: senders (no limit that matters here); scope 1: users, shared fairly over eight workers.
        let table = SlotTable::new([100, 100]).fair(1, 8);
        let take = |user: i64| table.acquire([user * 10, user], Some(Duration::ZERO));
        let all = |user: i64| async move {
            let mut held = Vec::new();
            while let Some(slot) = take(user).await {
                held.push(slot);
            }
            held
        };
        let mut eves = all(1).await;
        assert_eq!(eves.len(), 4, "alone, Eve takes half");
        let mals = all(2).await;
        assert_eq!(
            mals.len(),
            2,
            "a third each for two, with room for one more"
        );
        let oscars = all(3).await;
        assert_eq!(oscars.len(), 1, "one worker stays free");
        let ada = take(4).await.expect("the last worker is a newcomer's");
        assert!(take(5).await.is_none(), "the workers are all taken");
        // Eve's batches end; she takes no more while she holds her share of four users and one more (one).
        eves.truncate(1);
        assert!(take(1).await.is_none(), "Eve holds her share");
        drop((mals, oscars, ada));
        let eves_again = all(1).await;
        assert_eq!(
            eves.len() + eves_again.len(),
            4,
            "alone again, Eve takes half"
        );
    }
}
