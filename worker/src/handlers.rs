//! One plain `async fn` per job kind: what the job does, callable directly from tests.

use outreach_core::Context;

use crate::Stopping;
use outreach_core::ai::{Brief, Material, Writer, rates};

use outreach_core::accounts::{User, normalize_email};
use outreach_core::businesses::{CHUNK_SIZE, Enrichment, NewSearchLog, SearchParams};
use outreach_core::compose::{Composed, Envelope, compose};
use outreach_core::config::Secret;
use outreach_core::crawler::Crawler;
use outreach_core::directory;
use outreach_core::dns::{DnsLookup, Verdict};
use outreach_core::enrich::FoundEmail;
use outreach_core::jobs::SendCampaignEmail;
use outreach_core::jobs::{EnrichBusiness, ExpireSubscriptions, GenerateEmail, RunSearchChunk};
use outreach_core::mail_apis::{GMAIL_REVOKED, Gmail, SENDGRID_KEY_REFUSED, SendGrid};
use outreach_core::outbound::{Claim, Delivered, EmailConfig, Limits, MessageRow};
use outreach_core::security::decrypt_secret;
use outreach_core::sources::{self, Exclusions, Source, Target};
use outreach_core::templates::Recipient;
use outreach_core::transport::{SendError, SmtpServer, SmtpSession};
use serde_json::json;
use std::collections::HashMap;

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

/// Runs one chunk of a search: picks the source (the configured providers in order, the offline directory last),
/// asks for businesses that earlier chunks did not find, adds them to the user's businesses (de-duplicated), logs
/// the chunk, then enqueues the next chunk or completes the search. A cancelled search stops at the next chunk.
pub async fn run_search_chunk(ctx: &Context, job: &RunSearchChunk) -> anyhow::Result<()> {
    let Some(search) = ctx.db.load_search(job.search_id).await? else {
        return Ok(());
    };
    if search.status != "running" || job.chunk_number <= search.chunks_done {
        return Ok(());
    }
    let params: SearchParams = serde_json::from_str(&search.params)?;
    let now = ctx.now_ms();
    let (source, target) = match sources::choose(&ctx.db, &ctx.settings, &params).await? {
        Ok(chosen) => chosen,
        Err(reason) => {
            ctx.db
                .stop_search(search.id, "failed", Some(&reason), now)
                .await?;
            return Ok(());
        }
    };
    let earlier = ctx.db.businesses_of_search(search.id).await?;
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
    // until the chunk has its share or the source has no more (a few rounds at most).
    let mut seen = exclude.clone();
    let mut hits = Vec::new();
    let (mut added, mut position, mut exhausted) = (0usize, earlier.len() as i32, false);
    let mut business_data = Vec::new();
    for _round in 0..4 {
        if added >= wanted {
            break;
        }
        let batch = source
            .find(&ctx.db, &target, &search.search_term, wanted - added, &seen)
            .await?;
        // The provider may take seconds: a search cancelled meanwhile gets nothing more.
        let still_running = ctx
            .db
            .load_search(search.id)
            .await?
            .is_some_and(|now| now.status == "running");
        if !still_running {
            return Ok(());
        }
        exhausted = batch.len() < wanted - added;
        for hit in batch {
            let candidate = &hit.candidate;
            seen.ids.extend(candidate.provider_place_id.clone());
            seen.names.push(candidate.name.clone());
            let (business_id, new) = ctx.db.add_business(search.user_id, candidate, now).await?;
            if new && candidate.email.is_none() && candidate.website.is_some() {
                ctx.request_enrichment(business_id, &format!("enrich:{business_id}"))
                    .await?;
            }
            if ctx
                .db
                .add_search_result(search.id, business_id, position + 1)
                .await?
            {
                position += 1;
                added += 1;
                business_data.push(json!({ "name": candidate.name, "email": candidate.email }));
            }
            hits.push(hit);
        }
        if exhausted {
            break;
        }
    }
    let mut query = target.describe();
    query["provider"] = json!(source.name());
    query["limit"] = json!(wanted);
    query["excluded"] = json!(exclude.ids.len());
    if let Target::Local { business_type, .. } = &target {
        query["categories"] = json!(directory::categories_for(business_type));
    }
    let raw: Vec<_> = hits.iter().map(|hit| &hit.raw).collect();
    ctx.db
        .insert_search_log(
            &NewSearchLog {
                search: &search,
                chunk_number: job.chunk_number,
                max_results: wanted as i32,
                businesses_found: added as i32,
                excluded_items: exclude.names.join(", "),
                business_data: json!(business_data),
                query: query.to_string(),
                raw_response: json!({ "attribution": source.attribution(), "results": raw })
                    .to_string(),
            },
            now,
        )
        .await?;

    // A gazetteer city the extract does not cover finds nothing: say how to fix it rather than "no results".
    let gazetteer_centre =
        matches!(&target, Target::Local { centre: Some(centre), .. } if centre.kind == "geonames");
    if position == 0 && exhausted && gazetteer_centre && matches!(source, Source::Directory) {
        let area = params.geographic_area.unwrap_or_default();
        let reason = format!(
            "No businesses near {area} are in the offline directory. Import an OpenStreetMap extract that covers it."
        );
        ctx.db
            .stop_search(search.id, "failed", Some(&reason), now)
            .await?;
        return Ok(());
    }
    // The source has nothing more when a chunk comes back short.
    let last = job.chunk_number >= search.chunks_total || exhausted;
    let status = if last { "complete" } else { "running" };
    if ctx
        .db
        .finish_search_chunk(search.id, position, status, now)
        .await?
        && !last
    {
        let next = RunSearchChunk {
            search_id: search.id,
            chunk_number: job.chunk_number + 1,
        };
        let key = format!("search:{}:chunk:{}", search.id, next.chunk_number);
        ctx.queue.enqueue(next, Some(&key)).await?;
    }
    Ok(())
}

/// Reads the business's website: the best address (own domain first) with the page it was on, and the social
/// profiles. A site that cannot be read leaves "No email found" and the reason in the log.
pub async fn enrich_business(ctx: &Context, job: &EnrichBusiness) -> anyhow::Result<()> {
    let Some(business) = ctx.db.load_enrich_target(job.business_id).await? else {
        return Ok(());
    };
    let Some(website) = business.website.as_deref() else {
        ctx.db
            .record_enrichment(
                business.id,
                &Enrichment {
                    email: None,
                    source: None,
                    verdict: None,
                    status: "not_found",
                    social_media: "[]",
                },
                ctx.now_ms(),
            )
            .await?;
        return Ok(());
    };
    let crawler = Crawler::new(ctx.settings.crawler.clone());
    let (email, source, verdict, social) = match crawler.crawl(website).await {
        Ok(result) => {
            let best =
                best_deliverable(&DnsLookup::new(&ctx.settings.crawler), &result.emails).await;
            (
                best.as_ref().map(|(found, _)| found.address.clone()),
                best.as_ref().map(|(found, _)| found.page.clone()),
                best.map(|(_, verdict)| verdict.as_str()),
                serde_json::to_string(&result.social)?,
            )
        }
        Err(error) => {
            tracing::info!(business = business.id, error = %error, "website could not be read");
            (None, None, None, "[]".to_string())
        }
    };
    let status = if email.is_some() || business.email.is_some() {
        "found"
    } else {
        "not_found"
    };
    ctx.db
        .record_enrichment(
            business.id,
            &Enrichment {
                email: email.as_deref(),
                source: source.as_deref(),
                verdict,
                status,
                social_media: &social,
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

/// Messages of one batch are claimed one by one under the limits, composed, handed to their sender and marked.
/// A message already claimed or sent is passed over, so a retried or duplicated job sends nothing twice. When a
/// limit is reached the campaign pauses with the reason and the rest of the batch is scheduled again later.
pub async fn send_campaign_email(
    ctx: &Context,
    job: &SendCampaignEmail,
    stopping: &Stopping,
) -> anyhow::Result<()> {
    // One SMTP connection per sender for the whole batch.
    let mut sessions: HashMap<i64, SmtpSession> = HashMap::new();
    // Gmail access tokens, refreshed once per batch (and again on a 401).
    let mut gmail_tokens: HashMap<i64, Option<Secret>> = HashMap::new();
    let mut users: HashMap<i64, Option<User>> = HashMap::new();
    let mut configs: HashMap<i64, Option<EmailConfig>> = HashMap::new();
    let mut templates: HashMap<i64, Option<(String, String)>> = HashMap::new();
    let mut resumed = false;
    for (index, &id) in job.message_ids.iter().enumerate() {
        if stopping.is_set() {
            // The process is stopping: the rest goes to a new job, for this or another worker.
            let rest = SendCampaignEmail {
                campaign_id: job.campaign_id,
                message_ids: job.message_ids[index..].to_vec(),
            };
            let key = format!("send:{:?}:{id}:after-stop", job.campaign_id);
            ctx.queue.enqueue(rest, Some(&key)).await?;
            return Ok(());
        }
        let Some(message) = ctx.db.load_message(id).await? else {
            continue;
        };
        if message.status != "queued" {
            continue;
        }
        let now = ctx.now_ms();
        if ctx
            .db
            .find_unsubscribe(&normalize_email(&message.to_email))
            .await?
            .is_some()
        {
            ctx.db
                .mark_unsent(id, "skipped", "The recipient unsubscribed", None)
                .await?;
            continue;
        }
        // The account, sender and template are read once per batch, not once per message.
        if let std::collections::hash_map::Entry::Vacant(entry) = users.entry(message.user_id) {
            entry.insert(ctx.db.find_user(message.user_id).await?);
        }
        let Some(user) = users[&message.user_id].clone() else {
            continue;
        };
        let config = match message.config_id {
            Some(config_id) => {
                if let std::collections::hash_map::Entry::Vacant(entry) = configs.entry(config_id) {
                    entry.insert(ctx.db.load_email_config(config_id).await?);
                }
                configs[&config_id].clone()
            }
            None => None,
        };
        let limits = Limits {
            monthly_limit: user.email_limit(&ctx.settings.auth, &ctx.settings.accounts),
            daily_cap: config
                .as_ref()
                .map_or(i64::MAX, |config| i64::from(config.daily_cap)),
        };
        match ctx.db.claim_message(&message, limits, now).await? {
            Claim::Gone => continue,
            Claim::NoRoom => {
                pause_for_room(ctx, job, &job.message_ids[index..], now).await?;
                return Ok(());
            }
            Claim::Claimed => {}
        }
        if let Some(campaign_id) = message.campaign_id
            && !resumed
        {
            ctx.db.resume_campaign_if_paused(campaign_id, now).await?;
            resumed = true;
        }
        let composed =
            match compose_message(ctx, &message, &user, config.as_ref(), &mut templates).await? {
                Ok(composed) => composed,
                Err(reason) => {
                    ctx.db.mark_unsent(id, "failed", &reason, None).await?;
                    continue;
                }
            };
        let provider = config
            .as_ref()
            .map_or("outbox", |config| config.provider.as_str());
        let outcome = match (provider, &config) {
            ("outbox", _) => Ok(()),
            ("smtp", Some(config)) => {
                let session = match sessions.entry(config.id) {
                    std::collections::hash_map::Entry::Occupied(entry) => Ok(entry.into_mut()),
                    std::collections::hash_map::Entry::Vacant(entry) => {
                        SmtpServer::from_config(config, &ctx.settings.security.secret_key)
                            .map(|server| entry.insert(SmtpSession::new(server)))
                    }
                };
                match session {
                    Ok(session) => session.send(&composed).await,
                    Err(error) => Err(error),
                }
            }
            ("gmail", Some(config)) => {
                let token = gmail_tokens.entry(config.id).or_default();
                match gmail_sender(ctx, config) {
                    Ok(gmail) => gmail.send(token, &composed).await.map(|_| ()),
                    Err(error) => Err(error),
                }
            }
            ("sendgrid-basic" | "sendgrid-custom", Some(config)) => {
                match sendgrid_sender(ctx, config) {
                    Ok(sendgrid) => sendgrid.send(&composed).await.map(|_| ()),
                    Err(error) => Err(error),
                }
            }
            (other, _) => Err(SendError::Refused(format!(
                "Sending through {other} is not available on this instance"
            ))),
        };
        match outcome {
            Ok(()) => {
                let delivered = Delivered {
                    subject: &composed.subject,
                    html: &composed.html,
                    text: &composed.text,
                    message_id: &composed.message_id,
                    provider,
                };
                ctx.db.mark_sent(id, &delivered, ctx.now_ms()).await?;
                metrics::counter!("outreach_emails_sent_total", "provider" => provider.to_string())
                    .increment(1);
            }
            // Not handed over: back to the queue, and the job retries with backoff (sent ones are passed over).
            Err(SendError::Unreachable(reason)) => {
                ctx.db.requeue_message(id, &reason).await?;
                anyhow::bail!("message {id}: {reason}");
            }
            // The sender itself stopped working: it is turned off with the reason, the message waits, and the
            // campaign pauses until the user connects the sender again.
            Err(SendError::Refused(reason))
                if reason == GMAIL_REVOKED || reason == SENDGRID_KEY_REFUSED =>
            {
                if let Some(config) = &config {
                    ctx.db
                        .deactivate_email_config(config.id, &reason, ctx.now_ms())
                        .await?;
                }
                let Some(campaign_id) = job.campaign_id else {
                    // A test send has no campaign to wait in: it fails with the reason.
                    ctx.db
                        .mark_unsent(id, "failed", &reason, Some(provider))
                        .await?;
                    continue;
                };
                ctx.db.requeue_message(id, &reason).await?;
                ctx.db
                    .set_campaign_status(
                        campaign_id,
                        "paused",
                        Some(&format!("Paused: {reason}")),
                        ctx.now_ms(),
                    )
                    .await?;
                return Ok(());
            }
            Err(SendError::Refused(reason) | SendError::Invalid(reason)) => {
                tracing::info!(message = id, %reason, "message refused");
                ctx.db
                    .mark_unsent(id, "failed", &reason, Some(provider))
                    .await?;
            }
        }
    }
    for session in sessions.values_mut() {
        session.close().await;
    }
    if let Some(campaign_id) = job.campaign_id {
        ctx.db
            .complete_campaign_if_done(campaign_id, ctx.now_ms())
            .await?;
    }
    Ok(())
}

/// The message for its recipient: the campaign's template personalised with the business's details, or the
/// reason it cannot be written.
async fn compose_message(
    ctx: &Context,
    message: &MessageRow,
    user: &User,
    config: Option<&EmailConfig>,
    templates: &mut HashMap<i64, Option<(String, String)>>,
) -> anyhow::Result<Result<Composed, String>> {
    // A test email may bring its own subject and body instead of a template.
    let (subject, body) = match (message.template_id, &message.html_body) {
        (Some(template_id), _) => {
            if let std::collections::hash_map::Entry::Vacant(entry) = templates.entry(template_id) {
                let template = ctx.db.find_template(template_id, user.id).await?;
                entry.insert(template.map(|t| (t.subject, t.body)));
            }
            match templates[&template_id].clone() {
                Some(template) => template,
                None => return Ok(Err("The template was deleted".into())),
            }
        }
        (None, Some(body)) => (message.subject.clone(), body.clone()),
        (None, None) => return Ok(Err("The message has no template".into())),
    };
    let business = match message.business_id {
        Some(business_id) => ctx.db.find_business(business_id, user.id).await?,
        None => None,
    };
    let recipient = Recipient {
        business_name: business.as_ref().map(|business| business.name.clone()),
        city: business.as_ref().and_then(|business| business.city.clone()),
        website: business
            .as_ref()
            .and_then(|business| business.website.clone()),
        category: business
            .as_ref()
            .and_then(|business| business.category.clone()),
    };
    let outbox_address = format!("outbox@{}", ctx.settings.sending_domain());
    let sender_name = [user.first_name.as_deref(), user.last_name.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let (from_name, from_email, reply_to) = match config {
        Some(config) => (
            config.send_from_name.clone(),
            config.send_from.clone(),
            config.reply_to.clone(),
        ),
        None => (sender_name, outbox_address, Some(user.email.clone())),
    };
    let token = message.token.clone().unwrap_or_default();
    let envelope = Envelope {
        from_name: &from_name,
        from_email: &from_email,
        reply_to: reply_to.as_deref(),
        to_email: &message.to_email,
        postal_address: user.postal_address.as_deref().unwrap_or_default(),
        token: &token,
    };
    Ok(Ok(compose(
        &ctx.settings,
        &envelope,
        &subject,
        &body,
        &recipient,
    )))
}

/// The Gmail sender of a configuration: the instance's Google client and the mailbox's refresh token.
fn gmail_sender(ctx: &Context, config: &EmailConfig) -> Result<Gmail, SendError> {
    let google = &ctx.settings.google;
    Ok(Gmail {
        token_url: google.token_url.clone(),
        api_url: google.gmail_api_url.clone(),
        client_id: google.client_id.clone(),
        client_secret: google.client_secret.clone(),
        refresh_token: stored_secret(ctx, config)?,
    })
}

/// The SendGrid sender: the user's own key for branded senders, the operator's for basic addresses.
fn sendgrid_sender(ctx: &Context, config: &EmailConfig) -> Result<SendGrid, SendError> {
    let api_key = if config.provider == "sendgrid-custom" {
        stored_secret(ctx, config)?
    } else {
        ctx.settings.sendgrid.api_key.clone()
    };
    Ok(SendGrid {
        api_url: ctx.settings.sendgrid.api_url.clone(),
        api_key,
    })
}

fn stored_secret(ctx: &Context, config: &EmailConfig) -> Result<Secret, SendError> {
    config
        .secret
        .as_deref()
        .and_then(|stored| decrypt_secret(&ctx.settings.security.secret_key, stored))
        .ok_or_else(|| {
            SendError::Refused(
                "the sender's stored credential cannot be read; set the sender up again".into(),
            )
        })
}

/// A limit is reached: the campaign pauses with the reason, and the rest of the batch is tried again later.
async fn pause_for_room(
    ctx: &Context,
    job: &SendCampaignEmail,
    remaining: &[i64],
    now: i64,
) -> anyhow::Result<()> {
    let reason = "Paused: the monthly email limit or the sender's daily cap is reached. \
                  Sending resumes by itself when there is room.";
    let Some(campaign_id) = job.campaign_id else {
        // A test send is not kept waiting: the user hears that the limit is reached.
        for &id in remaining {
            ctx.db
                .mark_unsent(id, "failed", "The monthly email limit is reached", None)
                .await?;
        }
        return Ok(());
    };
    ctx.db
        .set_campaign_status(campaign_id, "paused", Some(reason), now)
        .await?;
    let resume_at = now + RESUME_AFTER_MS;
    let next = SendCampaignEmail {
        campaign_id: job.campaign_id,
        message_ids: remaining.to_vec(),
    };
    let key = format!("send:{campaign_id}:{}:at:{resume_at}", remaining[0]);
    ctx.queue
        .enqueue_at(next, Some(&key), Some(resume_at))
        .await?;
    Ok(())
}

/// How long a paused campaign waits before trying again.
const RESUME_AFTER_MS: i64 = 15 * 60 * 1000;
