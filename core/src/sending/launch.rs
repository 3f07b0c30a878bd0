//! A campaign's launch and test sends. A launch writes the first email to each business (a business without a valid
//! address is recorded as skipped) and queues their sending jobs once the rows are committed; a test send writes its
//! rows and one job. Both go through [`crate::sending::outgoing`].

use crate::Context;
use crate::accounts::{is_valid_email, normalize_email};
use crate::discovery::businesses::BusinessRow;
use crate::platform::faults;
use crate::platform::jobs::Branding;
use crate::platform::queue::QueueError;
use crate::sending::messages::{MessageKind, MessageStatus};
use crate::sending::outgoing::{Dispatch, Letter, Outgoing, queue_sending};

/// What a launch queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launched {
    pub queued: usize,
    pub skipped: usize,
    /// The message rows this launch wrote (a business another launch wrote one for at the same moment is not
    /// among them).
    pub written: Vec<i64>,
}

/// Why a business is skipped when another business of the same launch has its address.
const SHARED_ADDRESS: &str = "Another business of this campaign has this email address";

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

/// Queues the campaign's first email to each business, marks the campaign active, and completes it at once when
/// nothing was queued. Each email gets its sender from the campaign's pool when it is sent; a campaign that names
/// none gets the user's default sender as its pool (with no sender at all, the emails stay in the local outbox).
/// `at_once` sends them whatever the campaign's window.
pub async fn launch_campaign(
    ctx: &Context,
    user_id: i64,
    campaign_id: i64,
    template_id: i64,
    businesses: &[BusinessRow],
    at_once: bool,
) -> Result<Launched, QueueError> {
    let db = &ctx.db;
    // A campaign's senders are settled at its launch: those picked for it, else the default sender of the moment.
    let mut pooled = !db.sending().campaign_pool(campaign_id).await?.is_empty();
    if !pooled && let Some(default) = db.sending().default_sender(user_id).await? {
        db.sending()
            .set_campaign_pool(campaign_id, &[default.id])
            .await?;
        pooled = true;
    }
    let addresses: Vec<Option<String>> = businesses
        .iter()
        .map(|business| valid_address(business.email.as_deref()))
        .collect();
    // Two businesses may share one mailbox (branches of a chain): it gets one first email, not one per business.
    let mut seen = std::collections::HashSet::new();
    let letters: Vec<Letter> = businesses
        .iter()
        .zip(&addresses)
        .map(|(business, address)| Letter {
            to_email: address.as_deref().unwrap_or(""),
            business_id: Some(business.id),
            template_id: Some(template_id),
            skip: match address {
                None => Some("No email address"),
                Some(address) if !seen.insert(address) => Some(SHARED_ADDRESS),
                Some(_) => None,
            },
            ..Letter::default()
        })
        .collect();
    let outgoing = Outgoing {
        user_id,
        campaign_id: Some(campaign_id),
        config_id: None,
        pooled,
        kind: MessageKind::First,
    };
    let now = ctx.now_ms();
    let mut written = outgoing.write(db, &letters, now).await?;
    // A relaunch after a stop sends what the stop skipped.
    let ids: Vec<i64> = businesses.iter().map(|business| business.id).collect();
    let requeued = db
        .sending()
        .requeue_stopped(campaign_id, &ids, template_id)
        .await?;
    written.extend(&requeued);
    faults::point_with("launch-written", || campaign_id.to_string());
    db.campaigns()
        .mark_launched(campaign_id, template_id, now)
        .await?;
    // Jobs for the messages this launch wrote: another launch of the campaign at the same moment queues its own.
    let queued: Vec<i64> = db
        .sending()
        .load_messages(&written)
        .await?
        .into_iter()
        .filter(|message| message.status == MessageStatus::Queued)
        .map(|message| message.id)
        .collect();
    let (again, fresh): (Vec<i64>, Vec<i64>) = queued.iter().partition(|id| requeued.contains(id));
    let dispatch = Dispatch {
        at_once,
        ..Dispatch::default()
    };
    outgoing.queue(&ctx.queue, &fresh, dispatch).await?;
    // The stopped messages' first launch keyed jobs by them: the relaunch's jobs need keys of their own.
    let relaunch = format!("relaunch:{now}");
    let dispatch = Dispatch {
        at_once,
        tag: &relaunch,
        ..Dispatch::default()
    };
    outgoing.queue(&ctx.queue, &again, dispatch).await?;
    db.sending()
        .complete_campaign_if_done(campaign_id, now)
        .await?;
    Ok(Launched {
        queued: queued.len(),
        // Of the rows this launch wrote: a business written before (a relaunch) is not skipped again.
        skipped: written.len() - queued.len(),
        written,
    })
}

/// Sending jobs for the campaign's queued messages, in batches; returns how many messages they carry. `run` tells
/// this run's jobs from an earlier run's over the same messages (the moment of resuming).
pub async fn enqueue_sends(
    ctx: &Context,
    campaign_id: i64,
    run: &str,
) -> Result<usize, QueueError> {
    let queued = ctx.db.sending().queued_message_ids(campaign_id).await?;
    let dispatch = Dispatch {
        tag: run,
        ..Dispatch::default()
    };
    queue_sending(&ctx.queue, Some(campaign_id), &queued, dispatch).await?;
    Ok(queued.len())
}

/// Queues test messages to `to` through `config_id` (None: the outbox) in one job, from `branding`'s name and reply-to
/// where it gives them; returns their ids.
pub async fn queue_tests(
    ctx: &Context,
    user_id: i64,
    config_id: Option<i64>,
    to: &str,
    items: &[TestMessage],
    branding: Option<&Branding>,
) -> Result<Vec<i64>, QueueError> {
    let letters: Vec<Letter> = items
        .iter()
        .enumerate()
        .map(|(index, item)| Letter {
            to_email: to,
            business_id: item.business_id,
            template_id: item.template_id,
            step: index as i32,
            subject: &item.subject,
            html_body: item.body.as_deref(),
            ..Letter::default()
        })
        .collect();
    let outgoing = Outgoing {
        user_id,
        campaign_id: None,
        config_id,
        pooled: false,
        kind: MessageKind::Test,
    };
    let ids = outgoing.write(&ctx.db, &letters, ctx.now_ms()).await?;
    outgoing
        .queue(
            &ctx.queue,
            &ids,
            Dispatch {
                branding,
                ..Dispatch::default()
            },
        )
        .await?;
    Ok(ids)
}
