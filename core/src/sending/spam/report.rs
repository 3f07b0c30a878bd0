//! What a spam check answers: the engine, the score and the rules that fired (the pre-launch check's `spamCheck`).

use serde::Serialize;

/// SpamAssassin's threshold: a message scoring this much or more is spam.
pub const SPAM_THRESHOLD: f64 = 5.0;

/// The engine that scored a message.
pub const ENGINE_SPAMASSASSIN: &str = "spamassassin";
pub const ENGINE_BUILTIN: &str = "builtin";

/// One rule that fired.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpamRule {
    pub name: String,
    pub points: f64,
    pub description: String,
}

/// A message's score and the rules that fired, highest first.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpamCheck {
    /// `spamassassin` or `builtin`.
    pub engine: String,
    pub score: f64,
    pub rules: Vec<SpamRule>,
}

impl SpamCheck {
    /// The score is SpamAssassin's spam threshold or more: the launch waits for the user's confirmation.
    pub fn is_spam(&self) -> bool {
        self.score >= SPAM_THRESHOLD
    }

    /// The rules highest first.
    pub fn sorted(mut self) -> Self {
        self.rules
            .sort_by(|a, b| b.points.total_cmp(&a.points).then(a.name.cmp(&b.name)));
        self
    }
}
