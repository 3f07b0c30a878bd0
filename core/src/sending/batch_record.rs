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

/// Puts each hand-over of a run on record before its content goes (see `sending::Handoff`), with those of the
/// process's other connections that hand over at the same moment.
pub(super) struct Recorder<'a> {
    pub(super) db: &'a crate::Db,
    pub(super) log: &'a HandOverLog,
    pub(super) lease: &'a str,
    /// The run's message ids, in the order handed to the sender.
    pub(super) ids: &'a [i64],
    pub(super) message_ids: Vec<String>,
    /// Time spent recording hand-overs during the run (the rest of the run is the sender's).
    pub(super) handing: Duration,
}

impl Handoff for Recorder<'_> {
    async fn handing(
        &mut self,
        index: usize,
        connection: u64,
        refused_before: Option<usize>,
    ) -> Result<(), HandOverError> {
        // Rises per process; with the lease in the connection's name, it orders each connection's hand-overs.
        static SEQ: AtomicI64 = AtomicI64::new(1);
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let started = Instant::now();
        let hand_over = HandOver {
            id: self.ids[index],
            refused_before: refused_before.map(|at| self.ids[at]),
            connection: format!("{}/{connection}", self.lease),
            seq,
            message_id: self.message_ids[index].clone(),
        };
        self.log.record(self.db, hand_over).await?;
        let took = started.elapsed();
        self.handing += took;
        SendStep::HandOver.record(took);
        faults::point_with("handed", || self.ids[index].to_string());
        Ok(())
    }
}

/// A limit is reached: the campaign pauses with the reason, and the rest of the batch is tried again later.
pub(super) async fn pause_for_room(
    ctx: &Context,
    job: &SendCampaignEmail,
    remaining: &[i64],
    now: i64,
) -> anyhow::Result<()> {
    let reason = "Paused: the monthly email limit or the sender's daily cap is reached. \
                  Sending resumes by itself when there is room.";
    let Some(campaign_id) = job.campaign_id else {
        // A test send is not kept waiting: the user hears that the limit is reached.
        for &id in remaining {
            ctx.db
                .sending()
                .mark_unsent(
                    id,
                    MessageStatus::Failed,
                    "The monthly email limit is reached",
                    None,
                )
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
