//! A campaign's AI settings (A §4 step 6, A §9): how the AI answers replies and times follow-ups for this
//! campaign. Stored per campaign so that reply handling and the follow-up schedule read them from the campaign.

use crate::platform::invalid::Invalid;
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

crate::text_enum! {
    /// Which automatic answers wait for the user's approval: all, the campaign's first ten (the default: the user
    /// sees how the AI answers before it answers alone), or none.
    pub enum HumanApproval ("human approval") {
        Always = "always",
        FirstTen = "first_ten",
        Never = "never",
    }
}

impl CertaintyThreshold {
    /// The confidence a reading needs for an automatic answer; none when answers are manual.
    pub fn minimum(self) -> Option<f64> {
        match self {
            CertaintyThreshold::Low => Some(0.6),
            CertaintyThreshold::Medium => Some(0.75),
            CertaintyThreshold::High => Some(0.9),
            CertaintyThreshold::Manual => None,
        }
    }
}

impl ReplyTiming {
    /// How long after the reply an automatic answer goes out, in minutes: within 5 minutes, 1 to 2 hours, 4 to 8
    /// hours (a point in the range, so answers do not arrive on the minute), or the next business day, which the
    /// sending window's next opening a day on gives.
    pub fn delay_minutes(self, spread: f64) -> i64 {
        let within =
            |from: f64, to: f64| (from + (to - from) * spread.clamp(0.0, 1.0)).round() as i64;
        match self {
            ReplyTiming::Immediate => within(1.0, 5.0),
            ReplyTiming::Quick => within(60.0, 120.0),
            ReplyTiming::Business => within(240.0, 480.0),
            ReplyTiming::Delayed => 24 * 60,
        }
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
    /// Which automatic answers wait for the user.
    #[serde(default = "first_ten")]
    pub human_approval: HumanApproval,
    /// Automatic answers a day at most (1 to 100).
    #[serde(default = "twenty")]
    pub auto_reply_max_per_day: i32,
    /// The confidence an automatic answer needs, as an automation's test form gave it (0.85 is 85), in place of the
    /// certainty threshold's; none: the certainty threshold's.
    #[serde(default)]
    #[sqlx(rename = "auto_reply_min_percent")]
    pub min_confidence_percent: Option<i32>,
}

fn first_ten() -> HumanApproval {
    HumanApproval::FirstTen
}

fn twenty() -> i32 {
    20
}

impl AiSettings {
    /// The settings' own limits (B §5: at most 1 to 100 automatic answers a day).
    pub fn validate(&self) -> Result<(), Invalid> {
        if !(1..=100).contains(&self.auto_reply_max_per_day) {
            return Err("Automatic answers a day must be between 1 and 100".into());
        }
        if self
            .min_confidence_percent
            .is_some_and(|percent| !(0..=100).contains(&percent))
        {
            return Err("Confidence threshold must be between 0 and 1".into());
        }
        Ok(())
    }
}

/// A new campaign's settings: a moderate, patient tone, automatic answers only when the AI is 90% sure and the
/// first ten of them approved by the user, answers within business hours, at most 20 a day, AI-timed follow-ups.
impl Default for AiSettings {
    fn default() -> Self {
        AiSettings {
            sales_aggressiveness: SalesAggressiveness::Moderate,
            response_style: ResponseStyle::Patient,
            certainty_threshold: CertaintyThreshold::High,
            reply_timing: ReplyTiming::Business,
            ai_optimised_follow_up_timing: true,
            human_approval: HumanApproval::FirstTen,
            auto_reply_max_per_day: 20,
            min_confidence_percent: None,
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
