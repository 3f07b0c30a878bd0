//! Hand-overs recorded together. Every message's hand-over is committed before its content goes (see
//! `sending::Handoff`: a connection records a window of its next messages at once, sized by how long a record
//! takes here, which this log measures), and each connection waits for its own. On SQLite hand-overs are written in a file of their own through its one connection, so they never wait
//! for the claims and sent marks of the main file's writer (`platform::db`); the connections of one process that
//! hand over at the same moment share one statement and one commit there (group commit): whoever finds no write
//! under way writes everything waiting; the others wait for its answer. On PostgreSQL each connection writes its
//! own at once: the server already commits concurrent transactions together, and one write at a time would only
//! make them queue.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::oneshot;

use crate::Db;

/// One message handed to its sender: on this connection, in the window numbered `seq`, with this Message-ID; or,
/// with none of them, a message handed over before that its server did not take (or that was never tried), which is
/// unmarked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandOver {
    pub id: i64,
    pub connection: Option<String>,
    pub seq: Option<i64>,
    pub message_id: Option<String>,
}

impl HandOver {
    pub fn handed(id: i64, connection: String, seq: i64, message_id: String) -> Self {
        Self {
            id,
            connection: Some(connection),
            seq: Some(seq),
            message_id: Some(message_id),
        }
    }

    pub fn not_taken(id: i64) -> Self {
        Self {
            id,
            connection: None,
            seq: None,
            message_id: None,
        }
    }
}

/// Why a hand-over is not on record (its content is then kept back).
pub type HandOverError = String;

type Answer = oneshot::Sender<Result<(), HandOverError>>;
type Waiting = Vec<(Vec<HandOver>, Answer)>;

/// The process's hand-overs waiting for their write, the one write under way, and how long a record takes.
#[derive(Debug, Clone, Default)]
pub struct HandOverLog {
    waiting: Arc<Mutex<Waiting>>,
    writing: Arc<tokio::sync::Mutex<()>>,
    /// A moving average of the time from a record's start to its commit, in microseconds (0: none yet).
    commit_micros: Arc<AtomicU64>,
}

impl HandOverLog {
    /// How long a record takes to commit, lately (zero before the first).
    pub fn commit_time(&self) -> Duration {
        Duration::from_micros(self.commit_micros.load(Ordering::Relaxed))
    }

    /// Puts one connection's hand-overs on record, with whatever others are waiting; returns once they are
    /// committed.
    pub async fn record(&self, db: &Db, hand_overs: Vec<HandOver>) -> Result<(), HandOverError> {
        let started = Instant::now();
        let written = self.write(db, hand_overs).await;
        let took = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        // A moving average of the last few records; races between connections only blur it.
        let average = self.commit_micros.load(Ordering::Relaxed);
        let next = if average == 0 {
            took
        } else {
            (average * 7 + took) / 8
        };
        self.commit_micros.store(next, Ordering::Relaxed);
        written
    }

    async fn write(&self, db: &Db, hand_overs: Vec<HandOver>) -> Result<(), HandOverError> {
        // PostgreSQL commits concurrent transactions together by itself: each connection writes its own at once.
        if matches!(db, Db::Postgres(_)) {
            return db
                .sending()
                .hand_over(&hand_overs)
                .await
                .map_err(|error| error.to_string());
        }
        let (answer, mut answered) = oneshot::channel();
        self.waiting
            .lock()
            .expect("never poisoned")
            .push((hand_overs, answer));
        let writer = tokio::select! {
            biased;
            answer = &mut answered => return answer.unwrap_or_else(|_| Err(WRITER_GONE.into())),
            writer = self.writing.lock() => writer,
        };
        // No write is under way: this one takes everything waiting (its own record, unless the write before took it).
        let group = std::mem::take(&mut *self.waiting.lock().expect("never poisoned"));
        if !group.is_empty() {
            let (records, answers): (Vec<Vec<HandOver>>, Vec<Answer>) = group.into_iter().unzip();
            let records: Vec<HandOver> = records.into_iter().flatten().collect();
            let written = db
                .sending()
                .hand_over(&records)
                .await
                .map_err(|error| error.to_string());
            for answer in answers {
                answer.send(written.clone()).ok();
            }
        }
        drop(writer);
        answered.await.unwrap_or_else(|_| Err(WRITER_GONE.into()))
    }
}

/// A write that took this record was dropped before it answered (its batch was cut off): whether it committed is
/// unknown, so the content is kept back (a claim found handed over is settled as uncertain, never sent twice).
const WRITER_GONE: &str = "the write recording it was cut off";
