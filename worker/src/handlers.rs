//! One plain `async fn` per job kind: what the job does, callable directly from tests.

use outreach_core::Context;
use outreach_core::ai::{Brief, Material, Writer, rates};
use outreach_core::jobs::{ExpireSubscriptions, GenerateEmail};
use serde_json::json;

/// Trials and premium grants whose period ended become expired; returns how many.
pub async fn expire_subscriptions(ctx: &Context, job: &ExpireSubscriptions) -> anyhow::Result<u64> {
    let expired = ctx.db.expire_subscriptions(ctx.now_ms()).await?;
    let sessions = ctx.db.delete_expired_sessions(ctx.now_ms()).await?;
    tracing::info!(tick = %job.tick, expired, sessions, "subscriptions expired");
    Ok(expired)
}

/// Writes the email a user asked for and records the draft (with estimated rates) or the provider's error.
/// A provider failure is an answer for the user, not a reason to retry: the job succeeds either way.
pub async fn generate_email(ctx: &Context, job: &GenerateEmail) -> anyhow::Result<()> {
    let Some(row) = ctx.db.load_generation(job.generation_id).await? else {
        return Ok(());
    };
    if row.status != "pending" {
        return Ok(());
    }
    let brief: Brief = serde_json::from_str(&row.request)?;
    let mut material = Material {
        business: brief.business.clone(),
        ..Material::default()
    };
    if !brief.ai_education_text.trim().is_empty() {
        material.education.push((
            "notes".to_string(),
            brief.ai_education_text.trim().to_string(),
        ));
    }
    if let Some(campaign_id) = brief.campaign_id
        && ctx
            .db
            .find_campaign(campaign_id, row.user_id)
            .await?
            .is_some()
    {
        for file in ctx.db.list_education_files(campaign_id).await? {
            if brief.ai_education_files.is_empty() || brief.ai_education_files.contains(&file.name)
            {
                material.education.push((file.name, file.extracted_text));
            }
        }
    }
    let writer = Writer::from_settings(&ctx.settings.ai).map_err(anyhow::Error::msg)?;
    let (status, result, error) = match writer.write(&brief, &material).await {
        Ok(written) => {
            let own = ctx
                .db
                .own_results(row.user_id, &brief.objective, &brief.tone)
                .await?;
            let estimate = rates::estimate(&brief.objective, &brief.tone, own);
            let result = json!({
                "subject": written.draft.subject,
                "body": written.draft.body,
                "estimatedOpenRate": estimate.open_rate,
                "estimatedReplyRate": estimate.reply_rate,
                "ratesSource": estimate.source,
                "ratesSends": estimate.sends,
                "writer": writer.name(),
                "notes": written.notes,
            });
            ("done", Some(result.to_string()), None)
        }
        Err(error) => {
            tracing::warn!(generation = row.id, writer = %writer.name(), error = %error, "email generation failed");
            ("failed", None, Some(error.to_string()))
        }
    };
    ctx.db
        .finish_generation(
            row.id,
            status,
            result.as_deref(),
            error.as_deref(),
            ctx.now_ms(),
        )
        .await?;
    Ok(())
}
