//! Estimated open and reply rates of a draft or a template: the user's own results (for the same objective and
//! tone, or the template's own) once there are at least 20 sends, otherwise baseline figures.
//!
//! Baselines are mid-points of the ranges commonly reported for cold B2B email (opens 20–35%, replies 1–8%),
//! nudged by objective (partnership proposals get more replies than pitches) and tone (warmer tones a little
//! more). They are estimates and the UI says so.

use serde::Serialize;

/// Sends needed before the user's own figures replace the baseline.
pub const OWN_RESULTS_MINIMUM: i64 = 20;

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    /// Percent, one decimal.
    pub open_rate: f64,
    pub reply_rate: f64,
    pub source: RateSource,
    pub sends: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateSource {
    Baseline,
    YourResults,
}

/// (objective, open %, reply %)
const BASELINES: &[(&str, f64, f64)] = &[
    ("Lead Generation", 27.0, 4.0),
    ("Marketing Pitch", 24.0, 2.5),
    ("Partnership Proposal", 31.0, 6.0),
    ("Custom", 26.0, 3.5),
];

/// (tone, open points, reply points)
const TONE_ADJUSTMENTS: &[(&str, f64, f64)] = &[
    ("professional", 0.0, 0.0),
    ("friendly", 2.0, 1.0),
    ("casual", 1.0, 0.5),
];

/// `own` is (sends, opened, replied) of this user's emails with the same objective and tone.
pub fn estimate(objective: &str, tone: &str, own: (i64, i64, i64)) -> Estimate {
    let (sends, opened, replied) = own;
    if sends >= OWN_RESULTS_MINIMUM {
        let percent = |count: i64| round1(count as f64 * 100.0 / sends as f64);
        return Estimate {
            open_rate: percent(opened),
            reply_rate: percent(replied),
            source: RateSource::YourResults,
            sends,
        };
    }
    let (_, open, reply) = BASELINES
        .iter()
        .find(|(name, ..)| *name == objective)
        .copied()
        .unwrap_or(BASELINES[3]);
    let (_, open_tone, reply_tone) = TONE_ADJUSTMENTS
        .iter()
        .find(|(name, ..)| *name == tone)
        .copied()
        .unwrap_or(TONE_ADJUSTMENTS[0]);
    Estimate {
        open_rate: round1(open + open_tone),
        reply_rate: round1(reply + reply_tone),
        source: RateSource::Baseline,
        sends,
    }
}

fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baselines_until_twenty_sends_then_own_results() {
        assert_eq!(
            estimate("Partnership Proposal", "friendly", (0, 0, 0)),
            Estimate {
                open_rate: 33.0,
                reply_rate: 7.0,
                source: RateSource::Baseline,
                sends: 0
            }
        );
        assert_eq!(
            estimate("Marketing Pitch", "professional", (19, 19, 19)).source,
            RateSource::Baseline
        );
        assert_eq!(
            estimate("Marketing Pitch", "professional", (30, 10, 2)),
            Estimate {
                open_rate: 33.3,
                reply_rate: 6.7,
                source: RateSource::YourResults,
                sends: 30
            }
        );
        assert_eq!(
            estimate("Something else", "casual", (0, 0, 0)).open_rate,
            27.0
        );
    }
}
