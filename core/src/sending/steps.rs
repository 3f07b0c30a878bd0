//! Where a send batch spends its time (issue 32): the wall time of each step of the send path, as a tracing span and
//! as the histogram `outreach_send_step_seconds{step}`, so the SMTP benchmark (and Grafana) can say which step a
//! message waits in. A step is timed around one call; the batch's steps of different workers overlap in time.

use std::future::Future;
use std::time::{Duration, Instant};

use tracing::Instrument;

use crate::platform::telemetry::SEND_STEP_SECONDS;

/// A step of the send path, in the order a message meets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendStep {
    /// Reading the batch's messages and the addresses suppressed for everyone.
    Load,
    /// Waiting for one of the sender's connection slots.
    SlotWait,
    /// Claiming the messages under the monthly quota and the sender's daily cap (one transaction).
    Claim,
    /// Writing each message: personalisation, tracking links, headers, MIME.
    Compose,
    /// Recording each hand-over before its content goes (so a crash never sends twice).
    HandOver,
    /// The sender's own time: the SMTP conversation or the mail API's request, less the hand-overs.
    Smtp,
    /// Marking the accepted messages sent (one statement).
    MarkSent,
}

impl SendStep {
    pub const ALL: [SendStep; 7] = [
        SendStep::Load,
        SendStep::SlotWait,
        SendStep::Claim,
        SendStep::Compose,
        SendStep::HandOver,
        SendStep::Smtp,
        SendStep::MarkSent,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SendStep::Load => "load",
            SendStep::SlotWait => "slot_wait",
            SendStep::Claim => "claim",
            SendStep::Compose => "compose",
            SendStep::HandOver => "hand_over",
            SendStep::Smtp => "smtp",
            SendStep::MarkSent => "mark_sent",
        }
    }

    /// Records `elapsed` as this step's.
    pub fn record(self, elapsed: Duration) {
        metrics::histogram!(SEND_STEP_SECONDS, "step" => self.as_str())
            .record(elapsed.as_secs_f64());
    }

    /// Runs `work` in this step's span and records how long it took.
    pub async fn time<T>(self, work: impl Future<Output = T>) -> T {
        let started = Instant::now();
        let done = work
            .instrument(tracing::debug_span!("send_step", step = self.as_str()))
            .await;
        self.record(started.elapsed());
        done
    }
}
