//! Unsubscribes from the links of sent mail (RFC 8058 one-click and the unsubscribe page), written together. Each
//! request is answered only once its address is stored (the suppression holds before the mail provider hears it is
//! done), but a burst of them shares one statement: while one write runs the next requests gather, instead of each
//! taking a transaction of its own in turn on SQLite's one writer connection or a pool's connections
//! (docs/benchmarks.md, Tracking).

use std::collections::HashSet;

use tokio::sync::{mpsc, oneshot};

use crate::platform::db::Db;

/// The most addresses one write holds.
const BATCH_ADDRESSES: usize = 1_000;
/// Requests waiting for a write at most (then a request waits for room).
const CHANNEL_ADDRESSES: usize = BATCH_ADDRESSES * 4;

/// The write did not happen (the database refused it, or the writer stopped): nothing was suppressed, and the
/// caller must say so (a one-click answer of 503 has the mail provider try again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the unsubscribe was not recorded")]
pub struct Unrecorded;

/// An address to suppress, and where its answer goes.
struct Request {
    email: String,
    source: &'static str,
    at: i64,
    answer: oneshot::Sender<Result<bool, Unrecorded>>,
}

/// The unsubscribes' writer: handlers hand addresses over a channel and wait for their write; one task writes them.
#[derive(Clone)]
pub struct Unsubscriber {
    sender: mpsc::Sender<Request>,
}

impl Unsubscriber {
    /// Starts the writer; it stops once every clone is dropped (each request is answered before that).
    pub fn start(db: Db) -> Self {
        let (sender, receiver) = mpsc::channel(CHANNEL_ADDRESSES);
        tokio::spawn(write_batches(db, receiver));
        Self { sender }
    }

    /// Suppresses a normalised address and returns once it is stored: true when it was not suppressed before.
    pub async fn unsubscribe(
        &self,
        email: String,
        source: &'static str,
        at: i64,
    ) -> Result<bool, Unrecorded> {
        let (answer, answered) = oneshot::channel();
        let request = Request {
            email,
            source,
            at,
            answer,
        };
        self.sender.send(request).await.map_err(|_| Unrecorded)?;
        answered.await.unwrap_or(Err(Unrecorded))
    }
}

/// Takes whatever requests have gathered (at most a batch), writes them in one statement and answers each.
async fn write_batches(db: Db, mut receiver: mpsc::Receiver<Request>) {
    let mut batch = Vec::with_capacity(BATCH_ADDRESSES);
    while receiver.recv_many(&mut batch, BATCH_ADDRESSES).await > 0 {
        let entries: Vec<(&str, &str, i64)> = batch
            .iter()
            .map(|request| (request.email.as_str(), request.source, request.at))
            .collect();
        let mut added: Result<HashSet<String>, Unrecorded> = db
            .sending()
            .insert_unsubscribes(&entries)
            .await
            .map_err(|error| {
                tracing::error!(%error, addresses = entries.len(), "unsubscribes not recorded");
                Unrecorded
            });
        for request in batch.drain(..) {
            // Of an address asked for twice in a batch, the first request is the one that added it.
            let answer = match &mut added {
                Ok(added) => Ok(added.remove(&request.email)),
                Err(unrecorded) => Err(*unrecorded),
            };
            // The handler may have gone (its client hung up): the address is stored all the same.
            request.answer.send(answer).ok();
        }
    }
}
