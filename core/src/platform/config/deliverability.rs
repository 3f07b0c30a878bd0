//! The settings of issue 81: which spam checker the pre-launch check runs, and when an A/B test has a winner.

use serde::{Deserialize, Serialize};

/// The pre-launch spam check.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeliverabilitySettings {
    /// `auto`: SpamAssassin's `spamc` (when a `spamd` answers) or `spamassassin` found on the PATH, else the
    /// built-in checks; a path: that program (`spamc` or `spamassassin`); `off`: the built-in checks only.
    pub spamassassin: String,
    /// Seconds SpamAssassin may take to score a message before the built-in checks answer instead.
    pub timeout_seconds: u64,
}

impl Default for DeliverabilitySettings {
    fn default() -> Self {
        Self {
            spamassassin: "auto".into(),
            timeout_seconds: 60,
        }
    }
}

/// A/B variants of a step.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VariantSettings {
    /// Sends each variant of a step needs before a winner may be picked on positive replies.
    pub min_sends: i64,
    /// The probability of being best on positive replies a variant needs to win.
    pub confidence: f64,
}

impl Default for VariantSettings {
    fn default() -> Self {
        Self {
            min_sends: 100,
            confidence: 0.95,
        }
    }
}
