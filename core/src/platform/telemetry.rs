//! The metrics operators run the instance with (issue 22; dashboards in `grafana/dashboards`, alerts in
//! `grafana/alerts.yml`): each one's name, labels and help text in one place, and the functions the capabilities
//! call to record them. `describe` also starts every series an alert divides by at zero, so a rate exists (and an
//! alert can be evaluated) before the first event of its kind.

use std::time::Duration;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};

pub const SENDS: &str = "outreach_sends_total";
pub const SEND_STEP_SECONDS: &str = "outreach_send_step_seconds";
pub const EMAIL_OUTCOMES: &str = "outreach_email_outcomes_total";
pub const CAMPAIGN_PAUSES: &str = "outreach_campaign_pauses_total";
pub const TRACKING_EVENTS: &str = "outreach_tracking_events_total";
pub const WEBHOOK_REQUESTS: &str = "outreach_webhook_requests_total";
pub const INBOUND_READS: &str = "outreach_inbound_reads_total";
pub const SEARCH_CHUNKS: &str = "outreach_search_chunks_total";
pub const ENRICHMENTS: &str = "outreach_enrichments_total";
pub const AI_CALLS: &str = "outreach_ai_calls_total";
pub const AI_CALL_SECONDS: &str = "outreach_ai_call_seconds";
pub const SCHEDULER_TICKS: &str = "outreach_scheduler_ticks_total";
pub const SCHEDULER_LAST_TICK: &str = "outreach_scheduler_last_tick_timestamp_seconds";
pub const QUEUE_DEPTH: &str = "outreach_queue_depth";
pub const QUEUE_OLDEST_SECONDS: &str = "outreach_queue_oldest_job_age_seconds";
pub const USERS_OUT_OF_QUOTA: &str = "outreach_users_out_of_quota";
pub const SENDER_HEADROOM: &str = "outreach_sender_daily_headroom";
pub const JOB_PANICS: &str = "outreach_job_panics_total";
pub const WORKER_RESTARTS: &str = "outreach_worker_restarts_total";
pub const JOBS_UNREADABLE: &str = "outreach_jobs_unreadable_total";
pub const CHAINS_RESUMED: &str = "outreach_chains_resumed_total";
pub const SENDERS_TAKEN_OUT: &str = "outreach_senders_taken_out_total";

/// The chains of jobs the scheduler resumes after a crash cut them (see the scheduler's `resume_interrupted_chains`).
pub const CHAINS: &[&str] = &[
    "search",
    "enrichment",
    "automation",
    "send",
    "classification",
];

/// The senders' providers, as the sending metrics label them.
pub const PROVIDERS: &[&str] = &[
    "outbox",
    "smtp",
    "gmail",
    "sendgrid-basic",
    "sendgrid-custom",
];

/// What became of a message handed to a sender.
pub const SEND_OUTCOMES: &[&str] = &[
    "sent",
    "unreachable",
    "revoked",
    "refused",
    "invalid",
    "uncertain",
    "sender_down",
];

/// Why a campaign paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PauseReason {
    /// The user paused it.
    User,
    /// An administrator paused it.
    Operator,
    /// The monthly quota or a sender's daily cap is reached.
    Limit,
    /// The sender stopped working (a revoked grant, a refused login).
    Sender,
    /// Too many recent sends bounced.
    Bounces,
    /// Too many recent sends were reported as spam.
    Complaints,
}

/// Why a sender was taken out of rotation (`sending::health`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderOut {
    /// Its server could not be reached, time after time.
    Unreachable,
    /// Its server refused the sign-in, time after time.
    SignIn,
    /// Too many of its recent messages bounced.
    Bounces,
    /// A recipient reported its mail as spam.
    Complaint,
}

impl SenderOut {
    const ALL: [SenderOut; 4] = [
        SenderOut::Unreachable,
        SenderOut::SignIn,
        SenderOut::Bounces,
        SenderOut::Complaint,
    ];

    fn label(self) -> &'static str {
        match self {
            SenderOut::Unreachable => "unreachable",
            SenderOut::SignIn => "sign_in",
            SenderOut::Bounces => "bounces",
            SenderOut::Complaint => "complaint",
        }
    }
}

impl PauseReason {
    const ALL: [PauseReason; 6] = [
        PauseReason::User,
        PauseReason::Operator,
        PauseReason::Limit,
        PauseReason::Sender,
        PauseReason::Bounces,
        PauseReason::Complaints,
    ];

    fn label(self) -> &'static str {
        match self {
            PauseReason::User => "user",
            PauseReason::Operator => "operator",
            PauseReason::Limit => "limit",
            PauseReason::Sender => "sender",
            PauseReason::Bounces => "bounces",
            PauseReason::Complaints => "complaints",
        }
    }
}

/// Describes every metric and starts the series alerts divide by at zero. Call once after installing the recorder.
pub fn describe() {
    describe_counter!(
        SENDS,
        "Messages handed to a sender, by provider and outcome"
    );
    describe_counter!(
        EMAIL_OUTCOMES,
        "What providers and recipients reported about sent messages (delivered, open, click, hard_bounce, soft_bounce, spam, unsubscribe, reply)"
    );
    describe_counter!(CAMPAIGN_PAUSES, "Campaigns paused, by reason");
    describe_counter!(
        SENDERS_TAKEN_OUT,
        "Senders taken out of rotation, by reason (unreachable, sign_in, bounces, complaint)"
    );
    describe_counter!(
        TRACKING_EVENTS,
        "Opens and clicks recorded from tracking links, by kind and source (human or machine)"
    );
    describe_counter!(
        WEBHOOK_REQUESTS,
        "Provider webhook requests, by endpoint and outcome (accepted, refused, invalid, failed)"
    );
    describe_counter!(
        INBOUND_READS,
        "Mailbox reads for replies, by source and outcome"
    );
    describe_counter!(SEARCH_CHUNKS, "Search chunks run, by source and outcome");
    describe_counter!(ENRICHMENTS, "Business enrichments, by outcome");
    describe_counter!(
        AI_CALLS,
        "Calls to the writer or model, by provider, purpose and outcome"
    );
    describe_histogram!(
        AI_CALL_SECONDS,
        "Latency of calls to the writer or model, by provider and purpose"
    );
    describe_counter!(SCHEDULER_TICKS, "Scheduler ticks");
    describe_gauge!(
        SCHEDULER_LAST_TICK,
        "Unix time of the scheduler's last tick"
    );
    describe_gauge!(
        QUEUE_DEPTH,
        "Jobs waiting, running or due for a retry, by kind"
    );
    describe_gauge!(
        QUEUE_OLDEST_SECONDS,
        "Age of the oldest job of a kind that is due and not yet started"
    );
    describe_gauge!(
        USERS_OUT_OF_QUOTA,
        "Active users whose monthly email quota is used up"
    );
    describe_gauge!(
        SENDER_HEADROOM,
        "Messages active senders may still send today under their daily caps, by provider"
    );
    describe_counter!(
        "outreach_http_requests_total",
        "HTTP requests, by method, route and status class"
    );
    describe_histogram!(
        "outreach_http_request_duration_seconds",
        "HTTP request latency"
    );
    describe_counter!("outreach_jobs_total", "Jobs run, by kind and outcome");
    describe_histogram!("outreach_job_duration_seconds", "Job run time, by kind");
    describe_histogram!(
        SEND_STEP_SECONDS,
        "Wall time of one step of a send batch (load, slot_wait, claim, compose, hand_over, smtp, mark_sent)"
    );
    describe_counter!("outreach_jobs_enqueued_total", "Jobs enqueued, by kind");
    describe_counter!(
        JOB_PANICS,
        "Jobs that panicked, by kind (each failed like an error and is retried by its policy)"
    );
    describe_counter!(
        WORKER_RESTARTS,
        "Queue workers restarted after their fetch failed (a job row that cannot be read), by kind"
    );
    describe_counter!(
        JOBS_UNREADABLE,
        "Job rows that could not be read, set aside as failed, by kind"
    );
    describe_counter!(
        CHAINS_RESUMED,
        "Steps of chains of jobs queued again after a crash cut them between two steps, by chain"
    );
    describe_counter!(
        "outreach_automation_runs_total",
        "Automation runs, by outcome"
    );
    describe_histogram!(
        "outreach_automation_businesses_found",
        "Businesses an automation run found"
    );
    describe_histogram!(
        "outreach_automation_businesses_emailed",
        "Businesses an automation run emailed"
    );
    describe_counter!(
        "outreach_replies_classified_total",
        "Replies read, by classifier, sentiment and action"
    );
    describe_histogram!(
        "outreach_reply_classification_seconds",
        "Time to read a reply, by classifier"
    );
    describe_counter!(
        "outreach_auto_replies_sent_total",
        "Answers to replies sent, by mode (automatic or approved)"
    );
    describe_gauge!(
        "outreach_reply_approvals_waiting",
        "Answers waiting for a user's approval"
    );

    for provider in PROVIDERS {
        for outcome in SEND_OUTCOMES {
            counter!(SENDS, "provider" => *provider, "outcome" => *outcome).absolute(0);
        }
    }
    for outcome in ["hard_bounce", "spam"] {
        counter!(EMAIL_OUTCOMES, "outcome" => outcome).absolute(0);
    }
    for reason in PauseReason::ALL {
        counter!(CAMPAIGN_PAUSES, "reason" => reason.label()).absolute(0);
    }
    for reason in SenderOut::ALL {
        counter!(SENDERS_TAKEN_OUT, "reason" => reason.label()).absolute(0);
    }
    for kind in ["open", "click"] {
        for source in ["human", "machine"] {
            counter!(TRACKING_EVENTS, "kind" => kind, "source" => source).absolute(0);
        }
    }
    for endpoint in ["sendgrid_events", "sendgrid_inbound"] {
        for outcome in ["accepted", "refused", "invalid", "failed"] {
            counter!(WEBHOOK_REQUESTS, "endpoint" => endpoint, "outcome" => outcome).absolute(0);
        }
    }
    for source in ["imap", "gmail"] {
        for ok in [true, false] {
            counter!(INBOUND_READS, "source" => source, "outcome" => outcome(ok)).absolute(0);
        }
    }
    for source in ["directory", "osm", "google", "ai_web_search"] {
        for found in ["found", "empty", "failure"] {
            counter!(SEARCH_CHUNKS, "source" => source, "outcome" => found).absolute(0);
        }
    }
    for found in ["found", "not_found", "unreadable", "no_website"] {
        counter!(ENRICHMENTS, "outcome" => found).absolute(0);
    }
    for run in ["completed", "ended", "skipped", "failed"] {
        counter!("outreach_automation_runs_total", "outcome" => run).absolute(0);
    }
    for mode in ["automatic", "approved"] {
        counter!("outreach_auto_replies_sent_total", "mode" => mode).absolute(0);
    }
    // Registered without a value: an automation's first run fills them.
    let _ = histogram!("outreach_automation_businesses_found");
    let _ = histogram!("outreach_automation_businesses_emailed");
    counter!(SCHEDULER_TICKS).absolute(0);
    for chain in CHAINS {
        counter!(CHAINS_RESUMED, "chain" => *chain).absolute(0);
    }
    for kind in crate::platform::jobs::KINDS {
        counter!(JOB_PANICS, "job" => *kind).absolute(0);
        counter!(WORKER_RESTARTS, "job" => *kind).absolute(0);
        counter!(JOBS_UNREADABLE, "job" => *kind).absolute(0);
    }
}

/// `count` steps of `chain` were queued again after a crash cut it.
pub fn chain_resumed(chain: &'static str, count: usize) {
    counter!(CHAINS_RESUMED, "chain" => chain).increment(count as u64);
}

/// A job panicked (it fails like an error).
pub fn job_panicked(kind: &'static str) {
    counter!(JOB_PANICS, "job" => kind).increment(1);
}

/// A queue worker of `kind` stopped on a fetch error and is started again.
pub fn worker_restarted(kind: &str) {
    counter!(WORKER_RESTARTS, "job" => kind.to_string()).increment(1);
}

/// Job rows of `kind` that could not be read were set aside as failed.
pub fn jobs_unreadable(kind: &str, count: usize) {
    counter!(JOBS_UNREADABLE, "job" => kind.to_string()).increment(count as u64);
}

/// A message handed to a sender, and what the sender said.
pub fn send(provider: &'static str, outcome: &'static str) {
    counter!(SENDS, "provider" => provider, "outcome" => outcome).increment(1);
}

/// What a provider or recipient reported about a sent message.
pub fn email_outcome(outcome: &'static str) {
    counter!(EMAIL_OUTCOMES, "outcome" => outcome).increment(1);
}

/// A sender taken out of rotation.
pub fn sender_taken_out(reason: SenderOut) {
    counter!(SENDERS_TAKEN_OUT, "reason" => reason.label()).increment(1);
}

/// A campaign paused.
pub fn campaign_paused(reason: PauseReason) {
    counter!(CAMPAIGN_PAUSES, "reason" => reason.label()).increment(1);
}

/// `count` tracking events of one kind and source written.
pub fn tracking_events(kind: &'static str, machine: bool, count: u64) {
    let source = if machine { "machine" } else { "human" };
    counter!(TRACKING_EVENTS, "kind" => kind, "source" => source).increment(count);
}

/// A provider's webhook request and what became of it.
pub fn webhook(endpoint: &'static str, outcome: &'static str) {
    counter!(WEBHOOK_REQUESTS, "endpoint" => endpoint, "outcome" => outcome).increment(1);
}

/// A read of a mailbox for replies.
pub fn inbound_read(source: &'static str, ok: bool) {
    counter!(INBOUND_READS, "source" => source, "outcome" => outcome(ok)).increment(1);
}

/// A search chunk run.
pub fn search_chunk(source: &'static str, outcome: &'static str) {
    counter!(SEARCH_CHUNKS, "source" => source, "outcome" => outcome).increment(1);
}

/// A business enriched (or not).
pub fn enrichment(outcome: &'static str) {
    counter!(ENRICHMENTS, "outcome" => outcome).increment(1);
}

/// A call to the writer or a model.
pub fn ai_call(provider: &'static str, purpose: String, ok: bool, took: Duration) {
    histogram!(AI_CALL_SECONDS, "provider" => provider, "purpose" => purpose.clone())
        .record(took.as_secs_f64());
    counter!(AI_CALLS, "provider" => provider, "purpose" => purpose, "outcome" => outcome(ok))
        .increment(1);
}

/// The scheduler checked its schedules at `now_ms`.
pub fn scheduler_tick(now_ms: i64) {
    counter!(SCHEDULER_TICKS).increment(1);
    gauge!(SCHEDULER_LAST_TICK).set((now_ms / 1000) as f64);
}

/// A job kind's queue: how many wait and how long the oldest due one has waited.
pub fn queue(kind: &'static str, waiting: i64, oldest_age_seconds: i64) {
    gauge!(QUEUE_DEPTH, "job" => kind).set(waiting as f64);
    gauge!(QUEUE_OLDEST_SECONDS, "job" => kind).set(oldest_age_seconds.max(0) as f64);
}

fn outcome(ok: bool) -> &'static str {
    if ok { "success" } else { "failure" }
}
