//! The worker's integration tests, one binary: the queue (shared work, retries with backoff, schedules) and sending
//! (exactly once under limits, stops and restarts, hanging servers).

mod queue;
mod sending;
