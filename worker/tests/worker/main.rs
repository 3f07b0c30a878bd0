//! The worker's integration tests, one binary: the queue (shared work, retries with backoff, schedules), sending
//! (exactly once under limits, stops and restarts, hanging servers) and follow-ups (exactly once across schedulers
//! and workers, limits shared with first emails).

mod chains;
mod fairness;
mod follow_ups;
mod queue;
mod sending;
