//! Which variant each message of a campaign's step is written from (issue 81): drawn when its row is written, so a
//! retry sends the same one. A step's winner, once there is one, is every new message's; before that the step's
//! new messages are spread evenly over its variants in an order drawn from each recipient (a hash of campaign, step
//! and recipient), continuing the rotation of the step's messages already written.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::on_db;
use crate::platform::db::{Db, StoreResult};
use crate::platform::queries::*;
use crate::sending::SendingStore;
use crate::sending::messages::MessageKind;

/// What the draw reads of a message being written: its template and step, whether it is skipped, and its
/// recipient.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drawn<'a> {
    pub template_id: Option<i64>,
    pub step: i32,
    pub skipped: bool,
    pub business_id: Option<i64>,
    pub to_email: &'a str,
}

/// A step's winning variant, and when and why it won.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct WinnerRow {
    pub step: i32,
    pub variant: i32,
    /// The probability it is best on positive replies when the rule picked it (none: the user's pick).
    pub probability: Option<f64>,
    pub reason: String,
    pub decided_at: i64,
}

impl SendingStore<'_> {
    /// A campaign's winning variants, by step.
    pub async fn variant_winners(&self, campaign_id: i64) -> StoreResult<Vec<WinnerRow>> {
        let sql = VARIANT_WINNERS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)
    }

    /// How many messages of a step a campaign has written.
    pub async fn step_messages_written(
        &self,
        campaign_id: i64,
        kind: MessageKind,
        step: i32,
    ) -> StoreResult<i64> {
        let sql = VARIANT_WRITTEN.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql)
            .bind(campaign_id).bind(kind.as_str()).bind(step).fetch_one(pool).await)
    }
}

/// The variant of each letter of a campaign's first emails or follow-ups, in the letters' order.
pub async fn assign(
    db: &Db,
    campaign_id: i64,
    kind: MessageKind,
    letters: &[Drawn<'_>],
) -> StoreResult<Vec<i32>> {
    let mut variants = vec![0; letters.len()];
    if !matches!(kind, MessageKind::First | MessageKind::FollowUp) || letters.is_empty() {
        return Ok(variants);
    }
    let winners: HashMap<i32, i32> = db
        .sending()
        .variant_winners(campaign_id)
        .await?
        .into_iter()
        .map(|winner| (winner.step, winner.variant))
        .collect();
    // The letters of each (template, step), by their index.
    let mut groups: HashMap<(i64, i32), Vec<usize>> = HashMap::new();
    for (index, letter) in letters.iter().enumerate() {
        if let (Some(template_id), false) = (letter.template_id, letter.skipped) {
            groups
                .entry((template_id, letter.step))
                .or_default()
                .push(index);
        }
    }
    let mut counts: HashMap<i64, HashMap<i32, i32>> = HashMap::new();
    for ((template_id, step), mut indexes) in groups {
        if let Some(&winner) = winners.get(&step) {
            for index in indexes {
                variants[index] = winner;
            }
            continue;
        }
        if let std::collections::hash_map::Entry::Vacant(entry) = counts.entry(template_id) {
            entry.insert(db.campaigns().variant_counts(template_id).await?);
        }
        let count = counts[&template_id].get(&step).copied().unwrap_or(1);
        if count < 2 {
            continue;
        }
        let written = db
            .sending()
            .step_messages_written(campaign_id, kind, step)
            .await?;
        indexes.sort_by_cached_key(|&index| draw(campaign_id, step, &letters[index]));
        for (rank, index) in indexes.into_iter().enumerate() {
            variants[index] = ((written + rank as i64) % i64::from(count)) as i32;
        }
    }
    Ok(variants)
}

/// A recipient's place in its step's order: a hash of the campaign, the step and the recipient.
fn draw(campaign_id: i64, step: i32, letter: &Drawn<'_>) -> [u8; 8] {
    let mut hash = Sha256::new();
    hash.update(campaign_id.to_be_bytes());
    hash.update(step.to_be_bytes());
    hash.update(letter.business_id.unwrap_or(0).to_be_bytes());
    hash.update(letter.to_email.as_bytes());
    hash.finalize()[..8]
        .try_into()
        .expect("a digest is 32 bytes")
}

/// Spreads `n` letters over `count` variants as [`assign`] does, starting after `written` (for tests and figures).
pub fn spread(n: usize, count: i32, written: i64) -> Vec<i32> {
    (0..n)
        .map(|rank| ((written + rank as i64) % i64::from(count.max(1))) as i32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_spread_evenly_and_continue_the_rotation() {
        let split = spread(40, 2, 0);
        assert_eq!(split.iter().filter(|&&v| v == 0).count(), 20);
        assert_eq!(spread(3, 3, 1), [1, 2, 0]);
        let letter = Drawn {
            to_email: "a@b.example",
            business_id: Some(7),
            ..Drawn::default()
        };
        assert_eq!(
            draw(1, 0, &letter),
            draw(1, 0, &letter),
            "the same recipient, the same place"
        );
        assert_ne!(draw(1, 0, &letter), draw(2, 0, &letter));
    }
}
