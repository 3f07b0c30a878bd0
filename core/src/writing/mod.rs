//! Writing emails with AI: the writer chosen by configuration and the generation requests that run as jobs.

pub mod ai;
pub mod generations;
pub mod icebreaker;

crate::capability_store!(
    /// The writing capability's reads and writes: `db.writing()`.
    WritingStore,
    writing
);
