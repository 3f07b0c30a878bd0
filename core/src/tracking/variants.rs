//! A/B variants' figures and their winner (issue 81). For each step of a campaign, each variant's sends, human
//! opens (when the campaign tracks them), replies and positive replies, and the probability that it is the best on
//! positive replies: each variant's rate has a Beta(1 + positive, 1 + sent - positive) posterior (a uniform prior
//! and binomial sends), and the probability that one rate is the highest is integrated numerically. Once every
//! variant of a step has `variants.min_sends` sends and one is best with probability `variants.confidence` or more,
//! it wins: the step's waiting messages and every new one use it. The user may also pick a winner by hand.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::Context;
use crate::campaigns::CampaignRow;
use crate::campaigns::variants::letter;
use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::db::StoreResult;
use crate::platform::queries::*;
use crate::sending::variants::WinnerRow;
use crate::tracking::TrackingStore;

/// One variant's figures, as `GET /api/campaigns/{id}/variants` answers them.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariantFigures {
    /// 0 for the first email, n for follow-up n.
    pub step: i32,
    /// 0 for A (the template's own subject and body), 1 for B, and so on.
    pub variant: i32,
    /// The variant's letter: A, B, ...
    pub label: String,
    pub sent: i64,
    /// Messages a person opened; null when the campaign does not track opens.
    pub opened: Option<i64>,
    pub replied: i64,
    /// Replies read as positive.
    pub positive: i64,
    /// The probability that this variant has the highest rate of positive replies of its step.
    pub probability_best: f64,
    /// The step's winner: its remaining messages use this variant.
    pub winner: bool,
    /// For the winner: why it won (the rule's figures, or the user's pick) and when.
    pub winner_reason: Option<String>,
    pub decided_at: Option<Timestamp>,
}

/// One (step, variant)'s counts as stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct VariantCounts {
    pub step: i32,
    pub variant: i32,
    pub sent: i64,
    pub opened: i64,
    pub replied: i64,
    pub positive: i64,
}

impl TrackingStore<'_> {
    /// Each (step, variant)'s figures of a campaign.
    pub async fn variant_counts(&self, campaign_id: i64) -> StoreResult<Vec<VariantCounts>> {
        let sql = VARIANT_STATS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_all(pool).await)
    }

    /// Records a step's winner, decided by the rule (`pick`: false; the first decision stands) or picked by the
    /// user (`pick`: true; it replaces any other), and moves the step's waiting messages to it.
    pub async fn set_winner(
        &self,
        campaign_id: i64,
        winner: &WinnerRow,
        pick: bool,
    ) -> StoreResult<()> {
        let sql = if pick {
            VARIANT_PICK.sql(self)
        } else {
            VARIANT_DECIDE.sql(self)
        };
        let apply = VARIANT_APPLY_WINNER.sql(self);
        on_db!(self, pool => {
            sqlx::query(sql)
                .bind(campaign_id).bind(winner.step).bind(winner.variant).bind(winner.probability)
                .bind(&winner.reason).bind(winner.decided_at)
                .execute(pool).await?;
            sqlx::query(apply).bind(campaign_id).bind(winner.step).bind(winner.variant)
                .execute(pool).await?;
            Ok(())
        })
    }
}

/// The probability that each of these (sent, positive) counts has the highest rate, under independent
/// Beta(1 + positive, 1 + sent - positive) posteriors; the probabilities sum to 1.
pub fn probability_best(counts: &[(i64, i64)]) -> Vec<f64> {
    if counts.len() < 2 {
        return vec![1.0; counts.len()];
    }
    let shapes: Vec<(f64, f64)> = counts
        .iter()
        .map(|&(sent, positive)| {
            let positive = positive.clamp(0, sent.max(0));
            (1.0 + positive as f64, 1.0 + (sent.max(0) - positive) as f64)
        })
        .collect();
    // The grid covers every posterior's mass: its mean give or take 12 standard deviations.
    let (mut low, mut high) = (1.0f64, 0.0f64);
    for &(a, b) in &shapes {
        let mean = a / (a + b);
        let sd = (a * b / ((a + b).powi(2) * (a + b + 1.0))).sqrt();
        low = low.min(mean - 12.0 * sd);
        high = high.max(mean + 12.0 * sd);
    }
    let (low, high) = (low.max(0.0), high.min(1.0));
    const POINTS: usize = 4_000;
    let width = (high - low) / POINTS as f64;
    let xs: Vec<f64> = (0..POINTS)
        .map(|k| low + (k as f64 + 0.5) * width)
        .collect();
    // Each posterior's mass at each point, normalised on the grid (no Beta function needed).
    let masses: Vec<Vec<f64>> = shapes
        .iter()
        .map(|&(a, b)| {
            let logs: Vec<f64> = xs
                .iter()
                .map(|&x| (a - 1.0) * x.ln() + (b - 1.0) * (1.0 - x).ln())
                .collect();
            let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mass: Vec<f64> = logs.iter().map(|log| (log - top).exp()).collect();
            let total: f64 = mass.iter().sum();
            mass.into_iter().map(|m| m / total).collect()
        })
        .collect();
    // Each posterior's distribution function at each point (half its own point's mass: ties split evenly).
    let cdfs: Vec<Vec<f64>> = masses
        .iter()
        .map(|mass| {
            let mut below = 0.0;
            mass.iter()
                .map(|m| {
                    let at = below + m / 2.0;
                    below += m;
                    at
                })
                .collect()
        })
        .collect();
    let mut best: Vec<f64> = (0..shapes.len())
        .map(|i| {
            (0..POINTS)
                .map(|k| {
                    let others: f64 = (0..shapes.len())
                        .filter(|&j| j != i)
                        .map(|j| cdfs[j][k])
                        .product();
                    masses[i][k] * others
                })
                .sum()
        })
        .collect();
    let total: f64 = best.iter().sum();
    if total > 0.0 {
        best.iter_mut().for_each(|p| *p /= total);
    }
    best
}

/// The rule's winner of one step's (sent, positive) counts: the variant best with probability `confidence` or more,
/// once each has `min_sends` sends; with its probability.
pub fn pick_winner(counts: &[(i64, i64)], min_sends: i64, confidence: f64) -> Option<(usize, f64)> {
    if counts.len() < 2 || counts.iter().any(|&(sent, _)| sent < min_sends) {
        return None;
    }
    let probabilities = probability_best(counts);
    let (best, probability) = probabilities
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (probability >= confidence).then_some((best, probability))
}

/// Each step's variants of a campaign with their counts, A to the last (a variant with no message yet at zero).
async fn steps(
    ctx: &Context,
    campaign: &CampaignRow,
) -> StoreResult<BTreeMap<i32, Vec<VariantCounts>>> {
    let defined = match campaign.template_id {
        Some(template_id) => ctx.db.campaigns().variant_counts(template_id).await?,
        None => HashMap::new(),
    };
    let stored = ctx.db.tracking().variant_counts(campaign.id).await?;
    let mut steps: BTreeMap<i32, Vec<VariantCounts>> = BTreeMap::new();
    let mut sizes: BTreeMap<i32, i32> = defined.into_iter().collect();
    for counts in &stored {
        let size = sizes.entry(counts.step).or_insert(1);
        *size = (*size).max(counts.variant + 1);
    }
    for (step, size) in sizes {
        let variants = (0..size)
            .map(|variant| {
                stored
                    .iter()
                    .find(|counts| counts.step == step && counts.variant == variant)
                    .copied()
                    .unwrap_or(VariantCounts {
                        step,
                        variant,
                        ..VariantCounts::default()
                    })
            })
            .collect();
        steps.insert(step, variants);
    }
    Ok(steps)
}

/// Decides the winners the rule finds in the campaign's steps that have none yet; returns the steps decided.
pub async fn decide_winners(ctx: &Context, campaign: &CampaignRow) -> StoreResult<Vec<i32>> {
    let winners = ctx.db.sending().variant_winners(campaign.id).await?;
    let settings = &ctx.settings.variants;
    let mut decided = Vec::new();
    for (step, variants) in steps(ctx, campaign).await? {
        if variants.len() < 2 || winners.iter().any(|winner| winner.step == step) {
            continue;
        }
        let counts: Vec<(i64, i64)> = variants.iter().map(|v| (v.sent, v.positive)).collect();
        let Some((best, probability)) =
            pick_winner(&counts, settings.min_sends, settings.confidence)
        else {
            continue;
        };
        let figures: Vec<String> = variants
            .iter()
            .map(|v| format!("{} {} of {}", letter(v.variant), v.positive, v.sent))
            .collect();
        let reason = format!(
            "{} is best on positive replies with probability {:.2} ({}; at least {} sends each)",
            letter(best as i32),
            probability,
            figures.join(", "),
            settings.min_sends
        );
        let winner = WinnerRow {
            step,
            variant: best as i32,
            probability: Some(probability),
            reason,
            decided_at: ctx.now_ms(),
        };
        ctx.db
            .tracking()
            .set_winner(campaign.id, &winner, false)
            .await?;
        tracing::info!(
            campaign = campaign.id,
            step,
            variant = best,
            "A/B variant won"
        );
        decided.push(step);
    }
    Ok(decided)
}

/// Why a pick is refused: the field it names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct PickError {
    pub field: &'static str,
    pub message: String,
}

/// The user's pick of a step's winner.
pub async fn pick(
    ctx: &Context,
    campaign: &CampaignRow,
    step: i32,
    variant: i32,
) -> Result<(), PickRefused> {
    let steps = steps(ctx, campaign).await?;
    let Some(variants) = steps.get(&step).filter(|variants| variants.len() > 1) else {
        return Err(PickRefused::Invalid(PickError {
            field: "step",
            message: format!("Step {step} of this campaign has no variants"),
        }));
    };
    if !(0..variants.len() as i32).contains(&variant) {
        return Err(PickRefused::Invalid(PickError {
            field: "variant",
            message: format!("Step {step} has variants 0 to {}", variants.len() - 1),
        }));
    }
    let winner = WinnerRow {
        step,
        variant,
        probability: None,
        reason: format!("{} picked by you", letter(variant)),
        decided_at: ctx.now_ms(),
    };
    ctx.db
        .tracking()
        .set_winner(campaign.id, &winner, true)
        .await?;
    Ok(())
}

/// A refused pick: bad input, or the store failed.
#[derive(Debug, thiserror::Error)]
pub enum PickRefused {
    #[error(transparent)]
    Invalid(PickError),
    #[error(transparent)]
    Store(#[from] crate::platform::db::StoreError),
}

/// Every variant's figures of a campaign, by step and variant, after deciding any winner the rule now finds.
pub async fn variant_figures(
    ctx: &Context,
    campaign: &CampaignRow,
) -> StoreResult<Vec<VariantFigures>> {
    decide_winners(ctx, campaign).await?;
    let winners = ctx.db.sending().variant_winners(campaign.id).await?;
    let mut figures = Vec::new();
    for (step, variants) in steps(ctx, campaign).await? {
        let counts: Vec<(i64, i64)> = variants.iter().map(|v| (v.sent, v.positive)).collect();
        let probabilities = probability_best(&counts);
        let winner = winners.iter().find(|winner| winner.step == step);
        for (counts, probability) in variants.iter().zip(probabilities) {
            let won = winner.filter(|winner| winner.variant == counts.variant);
            figures.push(VariantFigures {
                step,
                variant: counts.variant,
                label: letter(counts.variant).to_string(),
                sent: counts.sent,
                opened: campaign.track_opens.then_some(counts.opened),
                replied: counts.replied,
                positive: counts.positive,
                probability_best: (probability * 1_000.0).round() / 1_000.0,
                winner: won.is_some(),
                winner_reason: won.map(|winner| winner.reason.clone()),
                decided_at: won.map(|winner| Timestamp(winner.decided_at)),
            });
        }
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_posterior_probability_of_being_best() {
        let tie = probability_best(&[(200, 10), (200, 10)]);
        assert!((tie[0] - 0.5).abs() < 0.01, "{tie:?}");
        let clear = probability_best(&[(200, 5), (200, 25)]);
        assert!(clear[1] > 0.99, "{clear:?}");
        assert!((clear.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let three = probability_best(&[(100, 5), (100, 5), (100, 5)]);
        assert!(
            three.iter().all(|p| (p - 1.0 / 3.0).abs() < 0.02),
            "{three:?}"
        );
        // Against a known value: Beta(2, 10) vs Beta(5, 7): P(second higher) is about 0.93.
        let known = probability_best(&[(10, 1), (10, 4)]);
        assert!((known[1] - 0.93).abs() < 0.02, "{known:?}");
    }

    #[test]
    fn the_rule_picks_no_winner_on_a_tie_or_too_few_sends() {
        assert_eq!(
            pick_winner(&[(150, 12), (150, 12)], 100, 0.95),
            None,
            "a tie"
        );
        assert_eq!(
            pick_winner(&[(99, 1), (150, 30)], 100, 0.95),
            None,
            "too few sends of A"
        );
        assert_eq!(
            pick_winner(&[(150, 10), (150, 14)], 100, 0.95),
            None,
            "not sure enough"
        );
        let (best, probability) = pick_winner(&[(150, 3), (150, 20)], 100, 0.95).unwrap();
        assert_eq!(best, 1);
        assert!(probability >= 0.95);
        let (best, _) = pick_winner(&[(300, 30), (300, 5), (300, 8)], 100, 0.95).unwrap();
        assert_eq!(best, 0);
        assert_eq!(
            pick_winner(&[(500, 50)], 100, 0.95),
            None,
            "one variant is no test"
        );
    }
}
