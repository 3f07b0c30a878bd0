//! The core crate's integration tests, one binary (link time is scarce): each module tests one capability from
//! outside, through the crate's public API, against local fake servers or real ones on loopback.

mod ai;
mod campaign_store;
mod claims;
mod crawler;
mod database_connections;
mod directory;
mod fuzz;
mod guards;
mod handover;
mod icebreaker_facts;
mod imap;
mod mail_apis;
mod message_parents;
mod migrations;
mod recovery_plans;
mod schema;
mod send_plans;
mod smtp_pipelining;
mod sources_google;
mod sources_osm;
mod sources_web_search;
mod spam;
mod test_databases;
mod tracking_events;
mod unicode;
mod unsubscribes;
