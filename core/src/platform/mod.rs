//! What every capability stands on: settings, the clock, secrets, size limits, the outbound network policy, DNS,
//! the database with its SQL files, job payloads and the queue, and fair shares of a process's workers.

mod allocator;
pub mod clock;
pub mod config;
pub mod db;
pub mod dns;
pub mod faults;
pub mod invalid;
pub mod jobs;
pub mod limits;
pub mod net;
pub mod queries;
pub mod queue;
pub mod security;
pub mod shares;
pub mod telemetry;
pub mod text;
pub mod text_enum;
pub mod window;
