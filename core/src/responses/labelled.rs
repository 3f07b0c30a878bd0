//! A labelled reply, as the corpus the offline reader learns from and the evaluation sets hold them: one JSON object
//! per line with `subject`, `body`, `sentiment`, `action`, `escalate` and `auto` (see `core/data/replies/README.md`).

use serde::Deserialize;

use super::classification::{Action, Sentiment};

/// One labelled reply.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labelled {
    pub subject: String,
    pub body: String,
    pub sentiment: Sentiment,
    pub action: Action,
    pub escalate: bool,
    pub auto: bool,
    /// Where the example comes from or what it tests (ignored by the scores).
    #[serde(default)]
    pub note: Option<String>,
}

/// Reads a labelled set; a bad line is refused with its number.
pub fn read_set(text: &str) -> Result<Vec<Labelled>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line).map_err(|error| format!("line {}: {error}", index + 1))
        })
        .collect()
}
