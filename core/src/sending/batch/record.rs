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
use crate::sending::outgoing::{Dispatch, Hold, queue_sending};
use crate::sending::steps::SendStep;

/// Puts the hand-overs of a run on record before their content goes (see `sending::Handoff`), with those of the
/// process's other connections that hand over at the same moment. A record hands over a window of a connection's
/// next messages, and the next window's record is written while this window's messages go (beside the SMTP
/// conversation, not before it), so a connection waits for a commit only when its messages go faster than one.
/// The window is as small as that allows: as many messages as the connection sends in one commit's time (the
/// commit time measured for the process, the pace for the connection), from one up to `sending.handover_window`.
/// After a crash the last two windows of a connection are in doubt (the one going out and the one recorded ahead),
/// so what is in doubt is about what was on the wire.
pub(super) struct Recorder<'a> {
    db: &'a crate::Db,
    log: &'a HandOverLog,
    lease: &'a str,
    /// The run's message ids, in the order handed to the sender.
    ids: &'a [i64],
    message_ids: Vec<String>,
    /// The most messages one record hands over on a connection.
    most: usize,
    /// The connection of the window going out, and the index after it.
    open: Option<(u64, usize)>,
    /// The next window's record, being written while the open window's messages go.
    ahead: Option<Ahead>,
    /// Which of the run's messages are on record as handed over.
    marked: Vec<bool>,
    /// Unmarks waiting for the connection's next record (until then their window is in doubt as a whole).
    pending: Vec<HandOver>,
    /// The connection's pace: the time between two hand-overs, less the waits for records (None: not seen yet).
    pub(super) gap: Option<Duration>,
    /// When the last hand-over was told, and the wait for records since.
    last_handed: Option<(Instant, Duration)>,
    /// Time spent waiting for hand-over records during the run (the rest of the run is the sender's).
    pub(super) handing: Duration,
}

/// A window's size: the messages a connection sends (one every `gap`) while a record commits, from one to `most`.
fn window_size(commit: Duration, gap: Option<Duration>, most: usize) -> usize {
    match gap {
        Some(gap) if !gap.is_zero() => {
            let fits = commit.as_nanos().div_ceil(gap.as_nanos());
            usize::try_from(fits).unwrap_or(usize::MAX).clamp(1, most)
        }
        // A pace not seen yet: one message, until it is.
        _ => 1,
    }
}

/// A window's record written ahead: on `connection`, messages `start..end`.
struct Ahead {
    connection: u64,
    start: usize,
    end: usize,
    write: tokio::task::JoinHandle<Result<(), HandOverError>>,
}

impl<'a> Recorder<'a> {
    /// `gap`: the pace the connection's sender had in the batch's earlier runs.
    pub(super) fn new(
        db: &'a crate::Db,
        log: &'a HandOverLog,
        lease: &'a str,
        (ids, message_ids): (&'a [i64], Vec<String>),
        most: usize,
        gap: Option<Duration>,
    ) -> Self {
        Self {
            db,
            log,
            lease,
            ids,
            message_ids,
            most: most.max(1),
            open: None,
            ahead: None,
            marked: vec![false; ids.len()],
            pending: Vec::new(),
            gap,
            last_handed: None,
            handing: Duration::ZERO,
        }
    }

    /// The run ended after `attempted` messages: those of its windows it never tried are unmarked, so they go
    /// back to the queue rather than count as in doubt.
    pub(super) async fn unmark_untried(&mut self, attempted: usize) -> Result<(), HandOverError> {
        self.open = None;
        // The window recorded ahead is on record (or not) once its write ends; either way its untried are unmarked.
        let ahead = self.ahead.take().map(|ahead| ahead.write);
        let mut failed = None;
        if let Some(write) = ahead {
            failed = self.wait(write).await.err();
        }
        let untried: Vec<usize> = (attempted..self.ids.len())
            .filter(|&at| self.marked[at])
            .collect();
        // The results of the rest are recorded by the batch.
        if untried.is_empty() {
            self.pending.clear();
            return failed.map_or(Ok(()), Err);
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

    /// Rows that hand over messages `start..end` on `connection`, in a window of their own, with the unmarks
    /// waiting; marks them.
    fn window_rows(&mut self, connection: u64, start: usize, end: usize) -> Vec<HandOver> {
        // Rises per process; with the lease in the connection's name, it orders each connection's windows.
        static SEQ: AtomicI64 = AtomicI64::new(1);
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let mut rows: Vec<HandOver> = std::mem::take(&mut self.pending)
            .into_iter()
            .filter(|row| !self.ids[start..end].contains(&row.id))
            .collect();
        for at in start..end {
            self.marked[at] = true;
            rows.push(HandOver::handed(
                self.ids[at],
                format!("{}/{connection}", self.lease),
                seq,
                self.message_ids[at].clone(),
            ));
        }
        rows
    }

    /// How many messages the next window holds.
    fn window(&self) -> usize {
        window_size(self.log.commit_time(), self.gap, self.most)
    }

    async fn record(&mut self, rows: Vec<HandOver>) -> Result<(), HandOverError> {
        let started = Instant::now();
        self.log.record(self.db, rows).await?;
        self.waited(started.elapsed());
        Ok(())
    }

    /// Waits for a record written ahead.
    async fn wait(
        &mut self,
        write: tokio::task::JoinHandle<Result<(), HandOverError>>,
    ) -> Result<(), HandOverError> {
        let started = Instant::now();
        let written = write
            .await
            .unwrap_or_else(|_| Err("the write recording it was cut off".into()));
        self.waited(started.elapsed());
        written
    }

    fn waited(&mut self, took: Duration) {
        self.handing += took;
        if let Some((_, waits)) = &mut self.last_handed {
            *waits += took;
        }
        SendStep::HandOver.record(took);
    }

    /// Starts the record of the window after the open one, to be written while the open one's messages go.
    fn record_ahead(&mut self) {
        let Some((connection, start)) = self.open else {
            return;
        };
        if self.ahead.is_some() || start >= self.ids.len() {
            return;
        }
        let end = (start + self.window()).min(self.ids.len());
        let rows = self.window_rows(connection, start, end);
        let (db, log) = (self.db.clone(), self.log.clone());
        let write = tokio::spawn(async move { log.record(&db, rows).await });
        self.ahead = Some(Ahead {
            connection,
            start,
            end,
            write,
        });
    }

    /// The pace: the time since the last hand-over, less the waits for records in between.
    fn learn_pace(&mut self) {
        let now = Instant::now();
        if let Some((last, waits)) = self.last_handed {
            let gap = now.saturating_duration_since(last).saturating_sub(waits);
            // A moving average: a few messages' worth of history, so one slow answer does not swing it.
            self.gap = Some(match self.gap {
                Some(average) => (average * 3 + gap) / 4,
                None => gap,
            });
        }
        self.last_handed = Some((now, Duration::ZERO));
    }
}

impl Handoff for Recorder<'_> {
    async fn handing(
        &mut self,
        index: usize,
        connection: u64,
        not_taken: Vec<usize>,
    ) -> Result<(), HandOverError> {
        self.learn_pace();
        let unmarks = self.unmarked(not_taken);
        self.pending.extend(unmarks);
        let within = matches!(self.open, Some((open, end)) if open == connection && index < end);
        if !within {
            match self.ahead.take() {
                // The window recorded ahead is this one's: once its write is done, it is open.
                Some(ahead)
                    if ahead.connection == connection
                        && (ahead.start..ahead.end).contains(&index) =>
                {
                    self.wait(ahead.write).await?;
                    self.open = Some((connection, ahead.end));
                }
                stale => {
                    let end = (index + self.window()).min(self.ids.len());
                    // Recorded ahead for another connection (the last one broke): its marks are moved to this
                    // window or undone in this window's record.
                    if let Some(stale) = stale {
                        self.wait(stale.write).await?;
                        let undone = (stale.start..stale.end)
                            .filter(|at| !(index..end).contains(at))
                            .collect();
                        let rows = self.unmarked(undone);
                        self.pending.extend(rows);
                    }
                    let rows = self.window_rows(connection, index, end);
                    self.open = Some((connection, end));
                    self.record(rows).await?;
                }
            }
        }
        self.record_ahead();
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
        tag: &if quota {
            Hold::MonthlyQuota
        } else {
            Hold::DailyCap
        }
        .tag(resume_at),
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

    /// Until the record written ahead is committed.
    async fn written(recorder: &Recorder<'_>) {
        while recorder
            .ahead
            .as_ref()
            .is_some_and(|ahead| !ahead.write.is_finished())
        {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_next_window_is_recorded_ahead_and_what_was_not_taken_is_unmarked() {
        each_backend(|test_db| async move {
            let db = &test_db.db;
            let ids = claimed_by_gone_worker(db, 6).await;
            let log = HandOverLog::default();
            let message_ids = ids
                .iter()
                .map(|id| format!("<{id}@bakery.example>"))
                .collect();
            // No pace seen yet: windows of one message.
            let mut recorder = Recorder::new(db, &log, "gone", (&ids, message_ids), 2, None);

            // The first message's window is recorded before its content goes, the next one's while it goes.
            recorder.handing(0, 7, Vec::new()).await.unwrap();
            written(&recorder).await;
            let seen = marks(db, &ids).await;
            let (first, second) = (seen[0].expect("on record"), seen[1].expect("ahead"));
            assert!(second > first);
            assert_eq!(seen, [Some(first), Some(second), None, None, None, None]);
            // The server refused the first after its content: the record written ahead of the third unmarks it.
            recorder.handing(1, 7, vec![0]).await.unwrap();
            written(&recorder).await;
            let third = marks(db, &ids).await[2].expect("ahead");
            assert_eq!(
                marks(db, &ids).await,
                [None, Some(second), Some(third), None, None, None],
                "{}",
                db.backend()
            );
            // The run ended after two messages: the third, recorded ahead, was never tried.
            recorder.unmark_untried(2).await.unwrap();
            assert_eq!(
                marks(db, &ids).await,
                [None, Some(second), None, None, None, None],
                "{}",
                db.backend()
            );
            // A new connection opens a window of its own; the pace of the first sizes it (one or two here).
            assert!(recorder.gap.is_some());
            recorder.handing(3, 8, Vec::new()).await.unwrap();
            written(&recorder).await;
            let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
            let on = |id: i64| {
                seen.iter()
                    .find(|message| message.id == id)
                    .unwrap()
                    .handed_by
                    .clone()
            };
            assert_eq!(on(ids[3]), Some("gone/8".to_string()));
            assert_eq!(on(ids[1]), Some("gone/7".to_string()));
            assert!(marks(db, &ids).await[3] > Some(second));
            recorder.unmark_untried(4).await.unwrap();
            test_db.cleanup().await;
        })
        .await;
    }

    #[test]
    fn a_window_holds_what_the_connection_sends_in_one_commit() {
        let ms = Duration::from_millis;
        assert_eq!(window_size(ms(2), None, 32), 1, "no pace seen yet");
        assert_eq!(
            window_size(ms(2), Some(ms(100)), 32),
            1,
            "a slow server: one at a time"
        );
        assert_eq!(window_size(ms(2), Some(ms(1)), 32), 2);
        assert_eq!(window_size(ms(5), Some(Duration::from_micros(400)), 32), 13);
        assert_eq!(
            window_size(ms(50), Some(Duration::from_micros(10)), 32),
            32,
            "at most the setting"
        );
        assert_eq!(
            window_size(Duration::ZERO, Some(ms(1)), 32),
            1,
            "no commit measured yet"
        );
    }
}
