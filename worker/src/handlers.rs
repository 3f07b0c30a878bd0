//! One plain `async fn` per job kind: what the job does, callable directly from tests.

use outreach_core::Context;
use outreach_core::platform::faults;

use outreach_core::campaigns::rates;
use outreach_core::writing::ai::writer::Writer;
use outreach_core::writing::ai::{Brief, Material};
use outreach_core::writing::generations::{Generated, GenerationStatus};

use std::collections::HashSet;

use outreach_core::discovery::businesses::{Candidate, Enrichment};

use outreach_core::discovery::crawler::Crawler;
use outreach_core::discovery::directory;
use outreach_core::discovery::enrich::FoundEmail;
use outreach_core::discovery::icebreakers;
use outreach_core::discovery::resume::queue_chunk;
use outreach_core::discovery::search::{CHUNK_SIZE, NewSearchLog, SearchParams, SearchStatus};
use outreach_core::discovery::sources::provider::{self, Source};
use outreach_core::discovery::sources::{Exclusions, Hit, Target};
use outreach_core::platform::clock::date_of;
use outreach_core::platform::dns::{DnsLookup, Verdict};
use outreach_core::platform::jobs::{
    ClassifyReply, EnrichBusiness, ExpireSubscriptions, GenerateEmail, IngestReplies,
    RunAutomation, RunSearchChunk, SendFollowUps,
};
use outreach_core::platform::telemetry;
use serde_json::json;

/// Trials and premium grants whose period ended become expired; returns how many.
pub async fn expire_subscriptions(ctx: &Context, job: &ExpireSubscriptions) -> anyhow::Result<u64> {
    let expired = ctx.db.accounts().expire_subscriptions(ctx.now_ms()).await?;
    let sessions = ctx
        .db
        .accounts()
        .delete_expired_sessions(ctx.now_ms())
        .await?;
    tracing::info!(tick = %job.tick, expired, sessions, "subscriptions expired");
    Ok(expired)
}

/// Reads one sender's IMAP mailbox for replies, automatic answers and bounces.
pub async fn ingest_replies(ctx: &Context, job: &IngestReplies) -> anyhow::Result<()> {
    let run = outreach_core::inbound::replies::ingest_mailbox(ctx, job.config_id).await?;
    tracing::info!(config_id = job.config_id, tick = %job.tick, read = run.read, matched = run.matched, "mailbox read");
    Ok(())
}

/// Queues the follow-ups due now; their sending jobs send them.
pub async fn send_follow_ups(ctx: &Context, job: &SendFollowUps) -> anyhow::Result<()> {
    let queued = outreach_core::followups::queue_due_follow_ups(ctx, None).await?;
    tracing::info!(tick = %job.tick, queued = queued.len(), "follow-ups queued");
    Ok(())
}

/// One run of an automation: its search, the businesses it picks, their emails, its record.
pub async fn run_automation(ctx: &Context, job: &RunAutomation) -> anyhow::Result<()> {
    outreach_core::automations::run(ctx, job.run_id).await
}

/// Reads a prospect's reply with the configured model (or the offline classifier) and drafts or queues its answer.
pub async fn classify_reply(ctx: &Context, job: &ClassifyReply) -> anyhow::Result<()> {
    let writer = Writer::from_settings(&ctx.settings.ai).map_err(anyhow::Error::msg)?;
    outreach_core::responses::classify_reply(ctx, &writer, job.inbound_id).await
}

/// Writes the email a user asked for and records the draft (with estimated rates) or the provider's error.
/// A provider failure is an answer for the user, not a reason to retry: the job succeeds either way.
pub async fn generate_email(ctx: &Context, job: &GenerateEmail) -> anyhow::Result<()> {
    let Some(row) = ctx.db.writing().load_generation(job.generation_id).await? else {
        return Ok(());
    };
    if row.status != GenerationStatus::Pending {
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
            .campaigns()
            .find_campaign(campaign_id, row.user_id)
            .await?
            .is_some()
    {
        for file in ctx.db.campaigns().list_education_files(campaign_id).await? {
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
                .writing()
                .own_results(row.user_id, &brief.objective, &brief.tone)
                .await?;
            let estimate = rates::estimate(&brief.objective, &brief.tone, own);
            let result = Generated {
                subject: written.draft.subject,
                body: written.draft.body,
                estimated_open_rate: estimate.open_rate,
                estimated_reply_rate: estimate.reply_rate,
                rates_source: estimate.source,
                rates_sends: estimate.sends,
                writer: writer.name(),
                notes: written.notes,
            };
            let result = serde_json::to_string(&result).map_err(anyhow::Error::from)?;
            (GenerationStatus::Done, Some(result), None)
        }
        Err(error) => {
            tracing::warn!(generation = row.id, writer = %writer.name(), error = %error, "email generation failed");
            (GenerationStatus::Failed, None, Some(error.to_string()))
        }
    };
    ctx.db
        .writing()
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

/// Runs one chunk of a search: picks the source (the configured providers in order, the offline directory last),
/// asks for businesses that earlier chunks did not find, adds them to the user's businesses (de-duplicated), logs
/// the chunk, then enqueues the next chunk or completes the search. A cancelled search stops at the next chunk.
pub async fn run_search_chunk(ctx: &Context, job: &RunSearchChunk) -> anyhow::Result<()> {
    let Some(search) = ctx.db.discovery().load_search(job.search_id).await? else {
        return Ok(());
    };
    if search.status != SearchStatus::Running || job.chunk_number < search.chunks_done {
        return Ok(());
    }
    // This chunk was recorded and its process died before queueing the next one: queue it now (once, by its key).
    if job.chunk_number == search.chunks_done {
        queue_chunk(ctx, search.id, job.chunk_number + 1).await?;
        return Ok(());
    }
    let params: SearchParams = serde_json::from_str(&search.params)?;
    let now = ctx.now_ms();
    let (source, target) = match provider::choose(&ctx.db, &ctx.settings, &params).await? {
        Ok(chosen) => chosen,
        Err(reason) => {
            telemetry::search_chunk("none", "failure");
            ctx.db
                .discovery()
                .stop_search(search.id, SearchStatus::Failed, Some(&reason.0), now)
                .await?;
            return Ok(());
        }
    };
    let earlier = ctx.db.discovery().businesses_of_search(search.id).await?;
    let exclude = Exclusions {
        ids: earlier
            .iter()
            .filter_map(|business| business.provider_place_id.clone())
            .collect(),
        names: earlier
            .iter()
            .map(|business| business.name.clone())
            .collect(),
    };
    let wanted = (params.max_results - earlier.len() as i32).clamp(0, CHUNK_SIZE) as usize;
    // A hit that duplicates a business already in this search adds nothing, so ask again, excluding all seen,
    // until the chunk has its share or the source has no more (a few rounds at most). Nothing is written until the
    // chunk is recorded whole, so a stop or a crash in between leaves nothing for the retry to trip over.
    let earlier_ids: HashSet<i64> = earlier.iter().map(|business| business.id).collect();
    let mut seen = exclude.clone();
    let mut hits: Vec<Hit> = Vec::new();
    let mut new_hits: Vec<usize> = Vec::new();
    let mut known_ids = HashSet::new();
    let mut exhausted = false;
    for _round in 0..4 {
        if new_hits.len() >= wanted {
            break;
        }
        let batch = source
            .find(
                &ctx.db,
                &target,
                &search.search_term,
                wanted - new_hits.len(),
                &seen,
            )
            .await
            .inspect_err(|_| telemetry::search_chunk(source.name(), "failure"))?;
        exhausted = batch.len() < wanted - new_hits.len();
        for hit in batch {
            let candidate = &hit.candidate;
            seen.ids.extend(candidate.provider_place_id.clone());
            seen.names.push(candidate.name.clone());
            let new_to_search = match ctx
                .db
                .discovery()
                .find_duplicate_business(search.user_id, candidate)
                .await?
            {
                Some(id) => !earlier_ids.contains(&id) && known_ids.insert(id),
                // Not stored yet: new unless another hit of this chunk is the same business (a chain's branches
                // share a website).
                None => !new_hits
                    .iter()
                    .any(|&at| hits[at].candidate.same_business(candidate)),
            };
            if new_to_search {
                new_hits.push(hits.len());
            }
            hits.push(hit);
        }
        if exhausted {
            break;
        }
    }
    let found = if new_hits.is_empty() {
        "empty"
    } else {
        "found"
    };
    telemetry::search_chunk(source.name(), found);
    let mut query = target.describe();
    query["provider"] = json!(source.name());
    query["limit"] = json!(wanted);
    query["excluded"] = json!(exclude.ids.len());
    if let Target::Local { business_type, .. } = &target {
        query["categories"] = json!(directory::categories_for(business_type));
    }
    let raw: Vec<_> = hits.iter().map(|hit| &hit.raw).collect();
    let log = NewSearchLog {
        search: &search,
        chunk_number: job.chunk_number,
        max_results: wanted as i32,
        excluded_items: exclude.names.join(", "),
        query: query.to_string(),
        raw_response: json!({ "attribution": source.attribution(), "results": raw }).to_string(),
    };
    let candidates: Vec<&Candidate> = new_hits.iter().map(|&at| &hits[at].candidate).collect();
    // The source has nothing more when a chunk comes back short.
    let last = job.chunk_number >= search.chunks_total || exhausted;
    let status = if last {
        SearchStatus::Complete
    } else {
        SearchStatus::Running
    };
    // A gazetteer city the extract does not cover finds nothing: say how to fix it rather than "no results".
    let gazetteer_centre =
        matches!(&target, Target::Local { centre: Some(centre), .. } if centre.kind == "geonames");
    let uncovered = earlier.is_empty()
        && candidates.is_empty()
        && exhausted
        && gazetteer_centre
        && matches!(source, Source::Directory);
    // The chunk and the failure in one write: the search endpoint, which waits for the first chunk, never sees one
    // without the other (it answered 202 "running" for an area the directory does not cover).
    let failure = uncovered.then(|| {
        let area = params.geographic_area.clone().unwrap_or_default();
        format!(
            "No businesses near {area} are in the offline directory. Import an OpenStreetMap extract that covers it."
        )
    });
    let status = if uncovered {
        SearchStatus::Failed
    } else {
        status
    };
    // The provider may take seconds: a search cancelled meanwhile records nothing.
    let Some(recorded) = ctx
        .db
        .discovery()
        .record_search_chunk(
            &log,
            &candidates,
            earlier.len() as i32,
            status,
            failure.as_deref(),
            now,
        )
        .await?
    else {
        return Ok(());
    };
    faults::point_with("search-recorded", || search.id.to_string());
    for business_id in recorded.to_enrich {
        ctx.request_enrichment(business_id, &format!("enrich:{business_id}"))
            .await?;
    }
    if uncovered {
        return Ok(());
    }
    if !last {
        queue_chunk(ctx, search.id, job.chunk_number + 1).await?;
    }
    Ok(())
}

/// Reads the business's website: the best address (own domain first) with the page it was on, and the social
/// profiles. A site that cannot be read leaves "No email found" with the reason.
pub async fn enrich_business(ctx: &Context, job: &EnrichBusiness) -> anyhow::Result<()> {
    let Some(business) = ctx
        .db
        .discovery()
        .load_enrich_target(job.business_id)
        .await?
    else {
        return Ok(());
    };
    let Some(website) = business.website.as_deref() else {
        ctx.db
            .discovery()
            .record_enrichment(
                business.id,
                &Enrichment {
                    email: None,
                    source: None,
                    verdict: None,
                    status: "not_found",
                    social_media: "[]",
                    website_error: None,
                },
                ctx.now_ms(),
            )
            .await?;
        telemetry::enrichment("no_website");
        return Ok(());
    };
    let crawler = Crawler::new(ctx.settings.crawler.clone());
    let (email, source, verdict, social, website_error) = match crawler.crawl(website).await {
        Ok(result) => {
            // The icebreaker first: a lookup the user waits on is done when the enrichment's time is written.
            let writer = Writer::from_settings(&ctx.settings.ai).map_err(anyhow::Error::msg)?;
            let now = ctx.now_ms();
            icebreakers::record(
                &ctx.db,
                &writer,
                business.id,
                &business.name,
                &result.read,
                job.language.as_deref(),
                job.rewrite_icebreaker,
                (date_of(now), now),
            )
            .await?;
            let best =
                best_deliverable(&DnsLookup::new(&ctx.settings.crawler), &result.emails).await;
            (
                best.as_ref().map(|(found, _)| found.address.clone()),
                best.as_ref().map(|(found, _)| found.page.clone()),
                best.map(|(_, verdict)| verdict.as_str()),
                serde_json::to_string(&result.social)?,
                None,
            )
        }
        Err(error) => {
            tracing::info!(business = business.id, error = %error, "website could not be read");
            (None, None, None, "[]".to_string(), Some(error.to_string()))
        }
    };
    let status = if email.is_some() || business.email.is_some() {
        "found"
    } else {
        "not_found"
    };
    telemetry::enrichment(match (status, &website_error) {
        ("not_found", Some(_)) => "unreadable",
        _ => status,
    });
    ctx.db
        .discovery()
        .record_enrichment(
            business.id,
            &Enrichment {
                email: email.as_deref(),
                source: source.as_deref(),
                verdict,
                status,
                social_media: &social,
                website_error: website_error.as_deref(),
            },
            ctx.now_ms(),
        )
        .await?;
    Ok(())
}

/// The address to keep: the first of the ranked ones whose domain takes mail, else the first with its verdict.
/// Only the top few are asked about, and no address is dropped for its verdict.
async fn best_deliverable(mx: &DnsLookup, emails: &[FoundEmail]) -> Option<(FoundEmail, Verdict)> {
    let mut first = None;
    for found in emails.iter().take(3) {
        let verdict = mx.verdict(&found.address).await;
        if verdict == Verdict::Deliverable {
            return Some((found.clone(), verdict));
        }
        first.get_or_insert((found.clone(), verdict));
    }
    first
}
