//! What a classifier reads in a prospect's reply (B §3 Email response): sentiment, action, confidence, language,
//! summary and the topics a person must handle. Shared by the offline classifier, the model, the answers and the
//! store, so it depends on none of them.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

crate::text_enum! {
    /// How the reply feels about the offer (B §3).
    pub enum Sentiment ("sentiment") {
        Positive = "positive",
        Neutral = "neutral",
        Negative = "negative",
    }
}

crate::text_enum! {
    /// What the reply calls for (B §3).
    pub enum Action ("action") {
        MarkInterested = "mark_interested",
        Reply = "reply",
        ScheduleFollowup = "schedule_followup",
        MarkNotInterested = "mark_not_interested",
    }
}

crate::text_enum! {
    /// A topic a person must handle: no automatic answer is sent for a reply that raises one.
    pub enum Escalation ("escalation") {
        /// Prices, quotes or discounts beyond the education material.
        Price = "price",
        /// Legal or data-protection matters.
        Legal = "legal",
        /// A complaint or a threat.
        Complaint = "complaint",
        /// Asks to stop being written to.
        Unsubscribe = "unsubscribe",
        /// Asks for a person.
        Human = "human",
        /// Tries to instruct the AI.
        Instruction = "instruction",
        /// Something else the reader judged a person should handle.
        Review = "review",
    }
}

/// What a classifier read in a reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Classification {
    pub sentiment: Sentiment,
    pub action: Action,
    /// How sure the reading is, 0 to 1.
    pub confidence: f64,
    /// ISO 639-1 code of the reply's language.
    pub language: String,
    /// One line saying what the reply is.
    pub summary: String,
    pub escalations: Vec<Escalation>,
    /// For "write again in September": when.
    #[schema(value_type = Option<String>, format = Date)]
    pub follow_up_on: Option<NaiveDate>,
}

impl Escalation {
    /// What a person must handle, in words.
    pub fn words(self) -> &'static str {
        match self {
            Escalation::Price => "a price or quote",
            Escalation::Legal => "a legal or data-protection matter",
            Escalation::Complaint => "a complaint",
            Escalation::Unsubscribe => "a request to stop emails",
            Escalation::Human => "a request for a person",
            Escalation::Instruction => "text that tries to instruct the AI",
            Escalation::Review => "something a person should read",
        }
    }
}
