//! Writing emails with AI: the writer chosen by configuration and the generation requests that run as jobs.

pub mod ai;
pub mod generations;
