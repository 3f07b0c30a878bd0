//! Hand-overs recorded together. Every message's hand-over is committed before its content goes (see
//! `sending::Handoff`), and each connection waits for its own. On SQLite, whose writes go one at a time through one
//! connection, the connections of one process that hand over at the same moment share one statement and one commit
//! (group commit): whoever finds no write under way writes everything waiting; the others wait for its answer. On
//! PostgreSQL each connection writes its own at once: the server already commits concurrent transactions together,
//! and one write at a time would only make them queue.

use std::sync::{Arc, Mutex};

use serde::Serialize;
use tokio::sync::oneshot;

use crate::Db;

/// One message handed to its sender: on this connection, in this order, with this Message-ID; and the message before
/// it on the connection when the server refused that one after its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HandOver {
    pub id: i64,
    pub refused_before: Option<i64>,
    pub connection: String,
    pub seq: i64,
    pub message_id: String,
}

/// Why a hand-over is not on record (its content is then kept back).
pub type HandOverError = String;

type Answer = oneshot::Sender<Result<(), HandOverError>>;

/// The process's hand-overs waiting for their write, and the one write under way.
#[derive(Debug, Clone, Default)]
pub struct HandOverLog {
    waiting: Arc<Mutex<Vec<(HandOver, Answer)>>>,
    writing: Arc<tokio::sync::Mutex<()>>,
}

impl HandOverLog {
    /// Puts one hand-over on record, with whatever others are waiting; returns once it is committed.
    pub async fn record(&self, db: &Db, hand_over: HandOver) -> Result<(), HandOverError> {
        // PostgreSQL commits concurrent transactions together by itself: each connection writes its own at once.
        if matches!(db, Db::Postgres(_)) {
            return db
                .sending()
                .hand_over(&[hand_over])
                .await
                .map_err(|error| error.to_string());
        }
        let (answer, mut answered) = oneshot::channel();
        self.waiting
            .lock()
            .expect("never poisoned")
            .push((hand_over, answer));
        let writer = tokio::select! {
            biased;
            answer = &mut answered => return answer.unwrap_or_else(|_| Err(WRITER_GONE.into())),
            writer = self.writing.lock() => writer,
        };
        // No write is under way: this one takes everything waiting (its own record, unless the write before took it).
        let group = std::mem::take(&mut *self.waiting.lock().expect("never poisoned"));
        if !group.is_empty() {
            let (records, answers): (Vec<HandOver>, Vec<Answer>) = group.into_iter().unzip();
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
