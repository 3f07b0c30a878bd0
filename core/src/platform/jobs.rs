//! Job payloads. Each kind is its own apalis queue, named by `Job::KIND`, which the CLI filters on.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

pub trait Job: Serialize + DeserializeOwned + Send + Sync + Unpin + 'static {
    const KIND: &'static str;
}

/// The scheduler's daily run: trials and premium grants whose period ended become expired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpireSubscriptions {
    /// The schedule tick this run belongs to (`2026-11-21`); the queue's idempotency key.
    pub tick: String,
}

impl Job for ExpireSubscriptions {
    const KIND: &'static str = "ExpireSubscriptions";
}

/// Writes the email of one generation request (`email_generations` row) with the configured writer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenerateEmail {
    pub generation_id: i64,
}

impl Job for GenerateEmail {
    const KIND: &'static str = "GenerateEmail";
}

/// Finds the businesses of one chunk of a search; the last chunk completes the search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSearchChunk {
    pub search_id: i64,
    /// 1-based.
    pub chunk_number: i32,
}

impl Job for RunSearchChunk {
    const KIND: &'static str = "RunSearchChunk";
}

/// Reads a business's website for email addresses, social profiles and the facts of its icebreaker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnrichBusiness {
    pub business_id: i64,
    /// The user asked for a new icebreaker: it replaces their own edit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rewrite_icebreaker: bool,
    /// The icebreaker's language (else the site's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

impl EnrichBusiness {
    pub fn of(business_id: i64) -> Self {
        Self {
            business_id,
            rewrite_icebreaker: false,
            language: None,
        }
    }
}

impl Job for EnrichBusiness {
    const KIND: &'static str = "EnrichBusiness";
}

/// Sends a batch of a campaign's queued messages (one job per batch, not per recipient, so a big campaign is a
/// few jobs). Each message is claimed in the database first, under the monthly quota and the sender's daily cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendCampaignEmail {
    /// None for test sends, which belong to no campaign.
    pub campaign_id: Option<i64>,
    pub message_ids: Vec<i64>,
    /// Sent at once, whatever the campaign's sending window: an automation's Run Now "executes immediately" (B §7).
    #[serde(default)]
    pub at_once: bool,
    /// A test's own from name and reply-to (a test send has no campaign whose settings say them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branding: Option<Branding>,
}

/// The from name and reply-to address of a test send, over the sender's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branding {
    pub from_name: Option<String>,
    pub reply_to: Option<String>,
}

impl SendCampaignEmail {
    /// Recipients per job: enough that the per-job reads and writes are a small share of each message, few enough
    /// that a campaign of a thousand recipients still spreads over several connections.
    pub const BATCH: usize = 200;
}

impl Job for SendCampaignEmail {
    const KIND: &'static str = "SendCampaignEmail";
}

/// Reads one SMTP sender's IMAP mailbox for replies, automatic answers and bounces (the scheduler enqueues one per
/// mailbox per tick).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IngestReplies {
    pub config_id: i64,
    /// The schedule tick this run belongs to; with the sender, the queue's idempotency key.
    pub tick: String,
}

impl Job for IngestReplies {
    const KIND: &'static str = "IngestReplies";
}

/// The scheduler's minute run: the follow-ups due now are queued and sent (`followups`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendFollowUps {
    /// The schedule tick this run belongs to; the queue's idempotency key.
    pub tick: String,
}

impl Job for SendFollowUps {
    const KIND: &'static str = "SendFollowUps";
}

/// Reads a prospect's reply (responses): its sentiment, action, escalations, and an answer drafted or queued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassifyReply {
    pub inbound_id: i64,
}

impl Job for ClassifyReply {
    const KIND: &'static str = "ClassifyReply";
}

/// One run of an automation (`automations`): search, pick, send, record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunAutomation {
    pub run_id: i64,
}

impl Job for RunAutomation {
    const KIND: &'static str = "RunAutomation";
}

/// Every job kind, for the CLI's help text and validation.
pub const KINDS: &[&str] = &[
    ExpireSubscriptions::KIND,
    GenerateEmail::KIND,
    RunSearchChunk::KIND,
    EnrichBusiness::KIND,
    SendCampaignEmail::KIND,
    IngestReplies::KIND,
    SendFollowUps::KIND,
    ClassifyReply::KIND,
    RunAutomation::KIND,
];
