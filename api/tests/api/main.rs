//! End-to-end tests of the HTTP API: the real router on 127.0.0.1:0 over a fresh database (SQLite, and PostgreSQL
//! with `TEST_DATABASE_URL`), signing in through a fake Google provider (wiremock) that checks every request.

use std::sync::{Arc, Mutex};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use outreach_core::platform::clock::Clock as _;
use outreach_core::platform::clock::{DAY_MS, ManualClock};
use outreach_core::platform::config::{AiProvider, SearchProvider};
use outreach_core::sending::messages::MessageStatus;
use outreach_core::testing::{DnsAnswer, TestDb, each_backend, fake_dns};
use outreach_core::{Context, Settings};
use reqwest::StatusCode;
use reqwest::header::{LOCATION, SET_COOKIE};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

mod helpers;
use helpers::*;

mod accounts;
mod admin;
mod analytics;
mod automations;
mod campaigns;
mod contract;
mod deliverability;
mod discovery;
mod follow_ups;
mod gmail;
mod hardening;
mod icebreakers;
mod inbound;
mod inbox;
mod input_abuse;
mod isolation;
mod monitoring;
mod pools;
mod public;
mod responses;
mod senders;
mod sending;
mod test_sends;
mod tracking;
mod variants;
mod windows;
mod writing;
