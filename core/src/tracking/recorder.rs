//! The batched tracking-event writer: the open, click and unsubscribe endpoints hand events over a channel and
//! answer at once; writer tasks take up to 20,000 events (or what 50 ms brings) and write them in one statement.
//! One job per event would cost a queue row and a worker round trip for each pixel (see docs/benchmarks.md).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinHandle;

use crate::platform::db::Db;
use crate::platform::telemetry;
use crate::tracking::events::TrackingEvent;

/// The most events one write holds. Opens spread over many messages each put an index entry (then of the events'
/// tokens, now of their message ids) and a first open its message's row on a page of its own, and SQLite logs every
/// page a write changes whole: at 1,000 a write the log took 90-150 MB/s, the writer fell behind, the channel filled
/// and the endpoints waited up to 100 ms for room. Larger writes under load share more pages (docs/benchmarks.md,
/// Tracking).
const BATCH_EVENTS: usize = 20_000;
/// Events waiting for their write at most (then the endpoints wait for room): four writes' worth.
const CHANNEL_EVENTS: usize = BATCH_EVENTS * 4;
/// The longest an event waits for its write.
const BATCH_WAIT: Duration = Duration::from_millis(50);
/// Batches written at once on PostgreSQL.
const POSTGRES_WRITERS: usize = 4;

/// The batched event writer: endpoints hand events over a channel; one task writes them.
#[derive(Clone)]
pub struct Recorder {
    sender: mpsc::Sender<TrackingEvent>,
    task: Arc<Mutex<Option<JoinHandle<()>>>>,
}

impl Recorder {
    pub fn start(db: Db) -> Self {
        let (sender, receiver) = mpsc::channel(CHANNEL_EVENTS);
        // PostgreSQL takes several batches at once (each write waits on a round trip and the server has cores of
        // its own); SQLite has one writer at a time, so a second batch would only wait for the lock.
        let writers = match db {
            Db::Postgres(_) => POSTGRES_WRITERS,
            Db::Sqlite { .. } => 1,
        };
        let receiver = Arc::new(Mutex::new(receiver));
        let task = tokio::spawn(async move {
            let writers: Vec<_> = (0..writers)
                .map(|_| tokio::spawn(write_batches(db.clone(), receiver.clone())))
                .collect();
            for writer in writers {
                writer.await.ok();
            }
        });
        Self {
            sender,
            task: Arc::new(Mutex::new(Some(task))),
        }
    }

    /// Hands an event to the writer (waits only when the channel is full).
    pub async fn record(&self, event: TrackingEvent) {
        // Most events find room: trying first skips setting up the wait for it.
        let sent = match self.sender.try_send(event) {
            Err(mpsc::error::TrySendError::Full(event)) => self.sender.send(event).await.is_ok(),
            other => other.is_ok(),
        };
        if !sent {
            tracing::error!("tracking event after the writer stopped");
        }
    }

    /// Waits until every event handed over so far is written; call after the server stopped (the router's
    /// clones of the sender are gone, so the channel closes once this one is dropped).
    pub async fn finish(self) {
        let task = self.task.lock().await.take();
        drop(self.sender);
        if let Some(task) = task {
            task.await.ok();
        }
    }
}

/// One writer: takes a batch off the channel (the next writer takes the one after while this one writes). Events
/// come off in runs of whatever has arrived, not one wake-up each.
async fn write_batches(db: Db, receiver: Arc<Mutex<mpsc::Receiver<TrackingEvent>>>) {
    let mut batch = Vec::with_capacity(BATCH_EVENTS);
    loop {
        {
            let mut receiver = receiver.lock().await;
            if receiver.recv_many(&mut batch, BATCH_EVENTS).await == 0 {
                break;
            }
            let deadline = tokio::time::Instant::now() + BATCH_WAIT;
            while batch.len() < BATCH_EVENTS {
                let room = BATCH_EVENTS - batch.len();
                match tokio::time::timeout_at(deadline, receiver.recv_many(&mut batch, room)).await
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        write(&db, &mut batch).await;
    }
    write(&db, &mut batch).await;
}

async fn write(db: &Db, batch: &mut Vec<TrackingEvent>) {
    if batch.is_empty() {
        return;
    }
    // A failed write is tried again a few times: the events are only in memory.
    for attempt in 1..=5u64 {
        match db.tracking().insert_events(batch).await {
            Ok(()) => {
                count_events(batch);
                batch.clear();
                return;
            }
            Err(error) => {
                tracing::warn!(%error, attempt, events = batch.len(), "tracking events not written yet");
                tokio::time::sleep(Duration::from_millis(100 * attempt)).await;
            }
        }
    }
    tracing::error!(
        events = batch.len(),
        "tracking events dropped after repeated write failures"
    );
    batch.clear();
}

/// Counts a written batch's events by kind and source, one counter update for each (not one for each event).
fn count_events(batch: &[TrackingEvent]) {
    for (kind, machine, count) in tally(batch) {
        telemetry::tracking_events(kind, machine, count);
    }
}

/// A batch's events counted by kind and whether a machine's, in the order each first appears.
fn tally(batch: &[TrackingEvent]) -> Vec<(&'static str, bool, u64)> {
    let mut counts: Vec<(&'static str, bool, u64)> = Vec::new();
    for event in batch {
        let key = (event.kind.as_str(), event.machine_agent());
        match counts
            .iter_mut()
            .find(|(kind, machine, _)| (*kind, *machine) == key)
        {
            Some((_, _, count)) => *count += 1,
            None => counts.push((key.0, key.1, 1)),
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::tally;
    use crate::tracking::events::{EventKind, TrackingEvent};

    fn event(kind: EventKind, user_agent: Option<&str>) -> TrackingEvent {
        TrackingEvent::new("t".into(), kind, None, user_agent.map(str::to_string), 0)
    }

    #[test]
    fn a_batch_is_counted_once_for_each_kind_and_source() {
        let person = Some("Thunderbird/128.0");
        let batch = [
            event(EventKind::Open, person),
            event(EventKind::Open, None),
            event(EventKind::Click, person),
            event(EventKind::Open, person),
            event(EventKind::Open, Some("GoogleImageProxy")),
        ];
        assert_eq!(
            tally(&batch),
            [("open", false, 2), ("open", true, 2), ("click", false, 1)]
        );
        assert!(tally(&[]).is_empty());
    }
}
