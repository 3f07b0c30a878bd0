//! Queuing messages for sending. A campaign launch writes one row per business (a business without a valid address
//! is recorded as skipped) and enqueues the send jobs once the rows are committed; a test send writes its rows and
//! one job. Rows are written before any job, with their unique key, so a job only ever sends rows still queued.

use crate::Context;
use crate::accounts::{is_valid_email, normalize_email};
use crate::campaigns::CampaignStatus;
use crate::discovery::businesses::BusinessRow;
use crate::platform::faults;
use crate::platform::jobs::SendCampaignEmail;
use crate::platform::queue::QueueError;
use crate::platform::security::random_token;
use crate::sending::messages::{MessageStatus, NewMessage};

/// What a launch queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launched {
    pub queued: usize,
    pub skipped: usize,
    /// The message rows this launch wrote (a business another launch wrote one for at the same moment is not
    /// among them).
    pub written: Vec<i64>,
}

/// One test message: a template (personalised for a business when given) or a subject and body of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestMessage {
    pub template_id: Option<i64>,
    pub business_id: Option<i64>,
    pub subject: String,
    pub body: Option<String>,
}

/// The address a business is emailed at: its email, normalised, when it is a valid address.
pub fn valid_address(email: Option<&str>) -> Option<String> {
    email
        .map(normalize_email)
        .filter(|email| is_valid_email(email))
}

/// Queues the campaign's first email to each business through `config_id` (None: the outbox), marks the campaign
/// active, and completes it at once when nothing was queued. `at_once` sends them whatever the campaign's window.
pub async fn launch_campaign(
    ctx: &Context,
    user_id: i64,
    campaign_id: i64,
    template_id: i64,
    config_id: Option<i64>,
    businesses: &[BusinessRow],
    at_once: bool,
) -> Result<Launched, QueueError> {
    let db = &ctx.db;
    let tokens: Vec<String> = businesses.iter().map(|_| random_token(16)).collect();
    let addresses: Vec<Option<String>> = businesses
        .iter()
        .map(|business| valid_address(business.email.as_deref()))
        .collect();
    let messages: Vec<NewMessage> = businesses
        .iter()
        .zip(&addresses)
        .zip(&tokens)
        .map(|((business, address), token)| NewMessage {
            user_id,
            to_email: address.as_deref().unwrap_or(""),
            status: if address.is_some() {
                MessageStatus::Queued
            } else {
                MessageStatus::Skipped
            },
            campaign_id: Some(campaign_id),
            template_id: Some(template_id),
            business_id: Some(business.id),
            step: 0,
            config_id,
            token,
            error: address.is_none().then_some("No email address"),
            is_test: false,
            subject: "",
            html_body: None,
            in_reply_to: None,
        })
        .collect();
    let now = ctx.now_ms();
    let written = db.enqueue_messages(&messages, now).await?;
    faults::point_with("launch-written", || campaign_id.to_string());
    db.set_campaign_status(campaign_id, CampaignStatus::Active, None, now)
        .await?;
    // Jobs for the messages this launch wrote: another launch of the campaign at the same moment queues its own.
    let queued: Vec<i64> = db
        .load_messages(&written)
        .await?
        .into_iter()
        .filter(|message| message.status == MessageStatus::Queued)
        .map(|message| message.id)
        .collect();
    enqueue_batches(ctx, campaign_id, &queued, "", at_once).await?;
    let queued = queued.len();
    db.complete_campaign_if_done(campaign_id, now).await?;
    Ok(Launched {
        queued,
        skipped: addresses.iter().filter(|address| address.is_none()).count(),
        written,
    })
}

/// Sending jobs for the campaign's queued messages, in batches; returns how many messages they carry. `run` tells
/// this run's jobs from an earlier run's over the same messages (empty at launch, the moment of resuming after).
pub async fn enqueue_sends(
    ctx: &Context,
    campaign_id: i64,
    run: &str,
) -> Result<usize, QueueError> {
    let queued = ctx.db.queued_message_ids(campaign_id).await?;
    enqueue_batches(ctx, campaign_id, &queued, run, false).await?;
    Ok(queued.len())
}

/// Sending jobs for `queued` messages of a campaign, in batches keyed by their first message (and `run`).
async fn enqueue_batches(
    ctx: &Context,
    campaign_id: i64,
    queued: &[i64],
    run: &str,
    at_once: bool,
) -> Result<(), QueueError> {
    let jobs = queued
        .chunks(SendCampaignEmail::BATCH)
        .map(|batch| {
            let key = if run.is_empty() {
                format!("send:{campaign_id}:{}", batch[0])
            } else {
                format!("send:{campaign_id}:{}:{run}", batch[0])
            };
            let job = SendCampaignEmail {
                campaign_id: Some(campaign_id),
                message_ids: batch.to_vec(),
                at_once,
            };
            (job, key)
        })
        .collect();
    ctx.queue.enqueue_all(jobs).await?;
    Ok(())
}

/// Queues test messages to `to` through `config_id` (None: the outbox) in one job; returns their ids.
pub async fn queue_tests(
    ctx: &Context,
    user_id: i64,
    config_id: Option<i64>,
    to: &str,
    items: &[TestMessage],
) -> Result<Vec<i64>, QueueError> {
    let tokens: Vec<String> = items.iter().map(|_| random_token(16)).collect();
    let messages: Vec<NewMessage> = items
        .iter()
        .zip(&tokens)
        .enumerate()
        .map(|(index, (item, token))| NewMessage {
            user_id,
            to_email: to,
            status: MessageStatus::Queued,
            campaign_id: None,
            template_id: item.template_id,
            business_id: item.business_id,
            step: index as i32,
            config_id,
            token,
            error: None,
            is_test: true,
            subject: &item.subject,
            html_body: item.body.as_deref(),
            in_reply_to: None,
        })
        .collect();
    let ids = ctx.db.enqueue_messages(&messages, ctx.now_ms()).await?;
    let job = SendCampaignEmail {
        campaign_id: None,
        message_ids: ids.clone(),
        at_once: false,
    };
    ctx.queue.enqueue(job, None).await?;
    Ok(ids)
}
