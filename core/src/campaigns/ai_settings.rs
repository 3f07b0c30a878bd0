//! A campaign's AI settings (A §4 step 6, A §9): how the AI answers replies and times follow-ups for this
//! campaign. Stored per campaign so that reply handling and the follow-up schedule read them from the campaign.

use serde::{Deserialize, Serialize};

crate::text_enum! {
    /// How hard the AI pushes toward the sale in its answers (A §9).
    pub enum SalesAggressiveness ("sales aggressiveness") {
        Soft = "soft",
        Moderate = "moderate",
        Assertive = "assertive",
        Aggressive = "aggressive",
    }
}

crate::text_enum! {
    /// The tone of AI answers: fixed at patient (A §9).
    #[derive(Default)]
    pub enum ResponseStyle ("response style") {
        #[default]
        Patient = "patient",
    }
}

crate::text_enum! {
    /// How sure the AI must be before it answers by itself (A §9): low 60%+, medium 75%+, high 90%+; manual means
    /// it never answers by itself.
    pub enum CertaintyThreshold ("certainty threshold") {
        Low = "low",
        Medium = "medium",
        High = "high",
        Manual = "manual",
    }
}

crate::text_enum! {
    /// How soon an AI answer goes out (A §9): within 5 minutes, in 1 to 2 hours, in 4 to 8 hours, or the next
    /// business day.
    pub enum ReplyTiming ("reply timing") {
        Immediate = "immediate",
        Quick = "quick",
        Business = "business",
        Delayed = "delayed",
    }
}

/// The AI settings of one campaign, as stored and as the campaign API reads and writes them.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow, utoipa::ToSchema,
)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AiSettings {
    pub sales_aggressiveness: SalesAggressiveness,
    /// Always 'patient'; not stored.
    #[sqlx(skip)]
    #[serde(default)]
    pub response_style: ResponseStyle,
    pub certainty_threshold: CertaintyThreshold,
    pub reply_timing: ReplyTiming,
    /// Follow-ups go out at the time the AI expects the prospect to read them (A §9: on by default).
    #[sqlx(rename = "ai_follow_up_timing")]
    pub ai_optimised_follow_up_timing: bool,
}

/// A new campaign's settings: a moderate, patient tone, no answer sent without the user (the user opts in to
/// automatic answers by choosing a certainty), answers within business hours, AI-timed follow-ups.
impl Default for AiSettings {
    fn default() -> Self {
        AiSettings {
            sales_aggressiveness: SalesAggressiveness::Moderate,
            response_style: ResponseStyle::Patient,
            certainty_threshold: CertaintyThreshold::Manual,
            reply_timing: ReplyTiming::Business,
            ai_optimised_follow_up_timing: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_response_style_is_patient_whether_or_not_it_is_sent() {
        let body = r#"{"salesAggressiveness":"soft","certaintyThreshold":"high","replyTiming":"quick","aiOptimisedFollowUpTiming":false}"#;
        let settings: AiSettings = serde_json::from_str(body).unwrap();
        assert_eq!(settings.response_style, ResponseStyle::Patient);
        let pushy = body.replace("\"soft\"", "\"soft\",\"responseStyle\":\"pushy\"");
        let refused = serde_json::from_str::<AiSettings>(&pushy).unwrap_err();
        assert!(
            refused.to_string().contains("unknown variant `pushy`"),
            "{refused}"
        );
    }
}
