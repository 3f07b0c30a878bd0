//! What a send batch puts on record besides the sent marks: each hand-over before its content goes (so that after a
//! crash a message never tried is told apart from one under way), and the pause when a limit is reached.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use crate::Context;
use crate::campaigns::CampaignStatus;
use crate::platform::faults;
use crate::platform::jobs::SendCampaignEmail;
use crate::platform::telemetry::{self, PauseReason};
use crate::sending::Handoff;
use crate::sending::handover::{HandOver, HandOverError, HandOverLog};
use crate::sending::messages::MessageStatus;
use crate::sending::outgoing::{Dispatch, queue_sending};
use crate::sending::steps::SendStep;

/// Puts the hand-overs of a run on record before their content goes (see `sending::Handoff`), with those of the
/// process's other connections that hand over at the same moment: a window of up to `window` messages of a connection
/// in one commit, so a commit's wait is shared by the window's messages.
pub(super) struct Recorder<'a> {
    db: &'a crate::Db,
    log: &'a HandOverLog,
    lease: &'a str,
    /// The run's message ids, in the order handed to the sender.
    ids: &'a [i64],
    message_ids: Vec<String>,
    /// How many messages one record hands over on a connection.
    window: usize,
    /// The connection of the last window recorded, and the index after it.
    open: Option<(u64, usize)>,
    /// Which of the run's messages are on record as handed over.
    marked: Vec<bool>,
    /// Unmarks waiting for the connection's next record (until then their window is in doubt as a whole).
    pending: Vec<HandOver>,
    /// Time spent recording hand-overs during the run (the rest of the run is the sender's).
    pub(super) handing: Duration,
}

impl<'a> Recorder<'a> {
    pub(super) fn new(
        db: &'a crate::Db,
        log: &'a HandOverLog,
        lease: &'a str,
        ids: &'a [i64],
        message_ids: Vec<String>,
        window: usize,
    ) -> Self {
        Self {
            db,
            log,
            lease,
            ids,
            message_ids,
            window: window.max(1),
            open: None,
            marked: vec![false; ids.len()],
            pending: Vec::new(),
            handing: Duration::ZERO,
        }
    }

    /// The run ended after `attempted` messages: those of its last window it never tried are unmarked, so they go
    /// back to the queue rather than count as in doubt.
    pub(super) async fn unmark_untried(&mut self, attempted: usize) -> Result<(), HandOverError> {
        self.open = None;
        let untried: Vec<usize> = (attempted..self.ids.len())
            .filter(|&at| self.marked[at])
            .collect();
        // The results of the rest are recorded by the batch.
        if untried.is_empty() {
            self.pending.clear();
            return Ok(());
        }
        let mut rows = std::mem::take(&mut self.pending);
        rows.extend(self.unmarked(untried));
        self.record(rows).await
    }

    /// Rows that unmark these messages (only those on record: the others have nothing to unmark).
    fn unmarked(&mut self, indexes: Vec<usize>) -> Vec<HandOver> {
        indexes
            .into_iter()
            .filter(|&at| std::mem::take(&mut self.marked[at]))
            .map(|at| HandOver::not_taken(self.ids[at]))
            .collect()
    }

    async fn record(&mut self, rows: Vec<HandOver>) -> Result<(), HandOverError> {
        let started = Instant::now();
        self.log.record(self.db, rows).await?;
        let took = started.elapsed();
        self.handing += took;
        SendStep::HandOver.record(took);
        Ok(())
    }
}

impl Handoff for Recorder<'_> {
    async fn handing(
        &mut self,
        index: usize,
        connection: u64,
        not_taken: Vec<usize>,
    ) -> Result<(), HandOverError> {
        let unmarks = self.unmarked(not_taken);
        self.pending.extend(unmarks);
        let within = matches!(self.open, Some((open, end)) if open == connection && index < end);
        if !within {
            // Rises per process; with the lease in the connection's name, it orders each connection's windows.
            static SEQ: AtomicI64 = AtomicI64::new(1);
            let seq = SEQ.fetch_add(1, Ordering::Relaxed);
            let end = (index + self.window).min(self.ids.len());
            for at in index..end {
                self.marked[at] = true;
                self.pending.push(HandOver::handed(
                    self.ids[at],
                    format!("{}/{connection}", self.lease),
                    seq,
                    self.message_ids[at].clone(),
                ));
            }
            self.open = Some((connection, end));
            let rows = std::mem::take(&mut self.pending);
            self.record(rows).await?;
        }
        faults::point_with("handed", || self.ids[index].to_string());
        Ok(())
    }
}

/// A limit is reached: the campaign pauses with the reason, and the rest of the batch is tried again later.
pub(super) async fn pause_for_room(
    ctx: &Context,
    job: &SendCampaignEmail,
    remaining: &[i64],
    quota: bool,
    now: i64,
) -> anyhow::Result<()> {
    let reason = if quota {
        "Paused: the monthly email limit is reached. Sending resumes by itself when there is room."
    } else {
        "Paused: the sender's daily cap is reached. Sending resumes by itself when there is room."
    };
    let Some(campaign_id) = job.campaign_id else {
        // A test send is not kept waiting: the user hears which limit is reached.
        let why = if quota {
            "The monthly email limit is reached"
        } else {
            "The sender's daily cap is reached"
        };
        for &id in remaining {
            ctx.db
                .sending()
                .mark_unsent(id, MessageStatus::Failed, why, None)
                .await?;
        }
        return Ok(());
    };
    ctx.db
        .campaigns()
        .set_campaign_status(campaign_id, CampaignStatus::Paused, Some(reason), now)
        .await?;
    telemetry::campaign_paused(PauseReason::Limit);
    let resume_at = now + RESUME_AFTER_MS;
    let dispatch = Dispatch {
        tag: &format!("at:{resume_at}"),
        at_once: job.at_once,
        not_before: Some(resume_at),
        branding: None,
    };
    queue_sending(&ctx.queue, Some(campaign_id), remaining, dispatch).await?;
    Ok(())
}

/// How long a paused campaign waits before trying again.
const RESUME_AFTER_MS: i64 = 15 * 60 * 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{claimed_by_gone_worker, each_backend};

    /// Each of the six messages' hand-over: its window's number, if it is on record.
    async fn marks(db: &crate::Db, ids: &[i64]) -> Vec<Option<i64>> {
        let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
        ids.iter()
            .map(|id| {
                let message = seen.iter().find(|message| message.id == *id).unwrap();
                message.handed_seq
            })
            .collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn windows_are_recorded_whole_and_what_was_not_taken_is_unmarked() {
        each_backend(|test_db| async move {
            let db = &test_db.db;
            let ids = claimed_by_gone_worker(db, 6).await;
            let log = HandOverLog::default();
            let message_ids = ids
                .iter()
                .map(|id| format!("<{id}@bakery.example>"))
                .collect();
            let mut recorder = Recorder::new(db, &log, "gone", &ids, message_ids, 2);

            // The first message opens a window of two, in one record.
            recorder.handing(0, 7, Vec::new()).await.unwrap();
            let first = marks(db, &ids).await[0].expect("on record");
            assert_eq!(
                marks(db, &ids).await,
                [Some(first), Some(first), None, None, None, None]
            );
            // The server refused the first after its content: inside the window nothing is written yet.
            recorder.handing(1, 7, vec![0]).await.unwrap();
            assert_eq!(marks(db, &ids).await[0], Some(first), "{}", db.backend());
            // The next window's record unmarks it.
            recorder.handing(2, 7, Vec::new()).await.unwrap();
            let second = marks(db, &ids).await[2].expect("on record");
            assert!(second > first);
            assert_eq!(
                marks(db, &ids).await,
                [None, Some(first), Some(second), Some(second), None, None]
            );
            // The run ended after three messages: the fourth, in the window, was never tried.
            recorder.unmark_untried(3).await.unwrap();
            assert_eq!(
                marks(db, &ids).await,
                [None, Some(first), Some(second), None, None, None],
                "{}",
                db.backend()
            );
            // A new connection opens a window of its own.
            recorder.handing(3, 8, Vec::new()).await.unwrap();
            let third = marks(db, &ids).await[3].expect("on record");
            let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
            let on = |id: i64| {
                seen.iter()
                    .find(|message| message.id == id)
                    .unwrap()
                    .handed_by
                    .clone()
            };
            assert_eq!(on(ids[3]), Some("gone/8".to_string()));
            assert_eq!(on(ids[2]), Some("gone/7".to_string()));
            assert!(third > second);
            test_db.cleanup().await;
        })
        .await;
    }
}
