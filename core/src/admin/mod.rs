//! The operator's work, shared by the console (`/api/admin/*`) and the command line (`outreach users|campaigns|
//! reprocess ...`): account changes, invites, the suppression list, queue jobs, campaign pauses and reprocessing.
//! Each action makes its change through the owning capability's own writes, in one transaction with its audit entry
//! (`audit`); the listings are in `listing`.

pub mod audit;
pub mod gauges;
pub mod listing;

use serde_json::json;

use crate::Context;
use crate::accounts::store::{self as accounts, InviteRow};
use crate::accounts::{AccountStatus, Grant, normalize_email};
use crate::discovery::search;
use crate::platform::clock::DAY_MS;
use crate::platform::db::StoreError;
use crate::platform::jobs::{ClassifyReply, RunSearchChunk};
use crate::platform::queries::*;
use crate::platform::queue::{self, QueueError};
use crate::platform::security::invite_code;
use crate::platform::telemetry::{self, PauseReason};
use crate::sending::control::{self, ControlError, PausedBy};
use crate::sending::suppression;
use crate::{on_db, platform};
use audit::{Arg, AuditEntry, Change};
use listing::{AdminCampaign, Filter};

/// Why an administrator's action does not apply; the message is shown as it is.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Queue(#[from] QueueError),
}

impl From<ControlError> for AdminError {
    fn from(error: ControlError) -> Self {
        match error {
            ControlError::Store(error) => AdminError::Store(error),
            ControlError::Queue(error) => AdminError::Queue(error),
            refused => AdminError::Invalid(refused.to_string()),
        }
    }
}

pub type AdminResult<T> = Result<T, AdminError>;

/// What an administrator does to an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserAction {
    Activate,
    Deactivate,
    /// B §2.15's Set Free Trial and Grant Premium (an account that does not exist yet is created).
    Grant(Grant),
    /// A new monthly email limit (at least 1).
    SetLimit(i64),
    /// More days on the current subscription (from its end, or from now when it ended).
    Extend {
        days: i64,
    },
}

impl UserAction {
    fn name(self) -> &'static str {
        match self {
            UserAction::Activate => "user.activate",
            UserAction::Deactivate => "user.deactivate",
            UserAction::Grant(Grant::FreeTrial) => "user.free_trial",
            UserAction::Grant(Grant::Premium { .. }) => "user.premium",
            UserAction::Grant(Grant::Administrator) => "user.administrator",
            UserAction::SetLimit(_) => "user.limit",
            UserAction::Extend { .. } => "user.extend",
        }
    }
}

/// Whole days an extension may add at once.
pub const MAX_EXTEND_DAYS: i64 = 366;

/// Changes an account; None when it already was as asked.
pub async fn change_user(
    ctx: &Context,
    actor: &str,
    email: &str,
    action: UserAction,
) -> AdminResult<Option<AuditEntry>> {
    let email = normalize_email(email);
    let now = ctx.now_ms();
    let user = ctx.db.accounts().find_user_by_email(&email).await?;
    // What is asked is checked before the change opens: a refused action writes nothing.
    match (action, &user) {
        (UserAction::Grant(_), _) => {}
        (_, None) => {
            return Err(AdminError::NotFound(format!(
                "No user found with email {email}"
            )));
        }
        (UserAction::SetLimit(limit), _) if limit < 1 => {
            return Err(AdminError::Invalid(
                "Email limit must be a positive number".into(),
            ));
        }
        (UserAction::Extend { days }, _) if !(1..=MAX_EXTEND_DAYS).contains(&days) => {
            return Err(AdminError::Invalid(format!(
                "Days must be a whole number from 1 to {MAX_EXTEND_DAYS}"
            )));
        }
        (UserAction::Extend { .. }, Some(user)) if user.subscription_plan.is_none() => {
            return Err(AdminError::Invalid(format!(
                "User {email} has no trial or premium grant to extend"
            )));
        }
        _ => {}
    }
    let change = Change::new(actor, action.name(), "user", &email)
        .snapshot(&ADMIN_USER_SNAPSHOT, Arg::text(&email));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let tx = audit.tx();
    let grant = |grant: Grant| grant.subscription(now, &ctx.settings.accounts);
    let changed = match (action, user) {
        (UserAction::Grant(granted), _) => {
            accounts::set_subscription(tx, &email, &grant(granted), now).await?;
            true
        }
        (UserAction::Activate, Some(user)) => {
            let activated =
                accounts::set_account_status(tx, user.id, AccountStatus::Active, now).await?;
            // Activating lets the user in: an account with no live trial or subscription (a new sign-up, an
            // expired trial) gets the free trial, as `set-user-status free_trial` gives it.
            let live = user.subscription_status.runs()
                && user.subscription_ends_at.is_none_or(|ends| ends > now);
            if !live {
                accounts::set_subscription(tx, &email, &grant(Grant::FreeTrial), now).await?;
            }
            activated || !live
        }
        (UserAction::Deactivate, Some(user)) => {
            accounts::set_account_status(tx, user.id, AccountStatus::Inactive, now).await?
        }
        (UserAction::SetLimit(limit), Some(user)) => {
            accounts::set_email_limit(tx, user.id, limit, now).await?
        }
        (UserAction::Extend { days }, Some(user)) => {
            accounts::extend_subscription(tx, user.id, days * DAY_MS, now).await?
        }
        (_, None) => false,
    };
    Ok(audit.finish_if(changed).await?)
}

/// Creates a single-use invite code with an optional note (at most 200 characters); returns the code.
pub async fn create_invite(
    ctx: &Context,
    actor: &str,
    note: Option<&str>,
    created_by: Option<i64>,
) -> AdminResult<InviteRow> {
    let note = note.map(str::trim).filter(|note| !note.is_empty());
    if note.is_some_and(|note| note.chars().count() > 200) {
        return Err(AdminError::Invalid(
            "The note must be at most 200 characters".into(),
        ));
    }
    let code = invite_code();
    let now = ctx.now_ms();
    let change = Change::new(actor, "invite.create", "invite", &code)
        .snapshot(&ADMIN_INVITE_SNAPSHOT, Arg::text(&code));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    accounts::insert_invite(audit.tx(), &code, note, created_by, now).await?;
    audit.finish().await?;
    let page = listing::INVITES
        .page(None, true, 10, 0)
        .expect("default order");
    let filter = Filter {
        text: code.clone(),
        ..Filter::default()
    };
    let (rows, _) = ctx.db.admin().admin_invites(&filter, None, &page).await?;
    rows.into_iter()
        .find(|invite| invite.code == code)
        .ok_or_else(|| AdminError::NotFound(format!("The invite {code} was not written")))
}

/// One invite code, by id.
pub async fn find_invite(ctx: &Context, id: i64) -> AdminResult<InviteRow> {
    let page = listing::INVITES
        .page(None, true, 1, 0)
        .expect("default order");
    let (mut rows, _) = ctx
        .db
        .admin()
        .admin_invites(&Filter::default(), Some(id), &page)
        .await?;
    rows.pop()
        .ok_or_else(|| AdminError::NotFound("No such invite".into()))
}

/// Revokes an unredeemed invite code.
pub async fn revoke_invite(ctx: &Context, actor: &str, code: &str) -> AdminResult<AuditEntry> {
    let now = ctx.now_ms();
    let change = Change::new(actor, "invite.revoke", "invite", code)
        .snapshot(&ADMIN_INVITE_SNAPSHOT, Arg::text(code));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let revoked = accounts::revoke_invite(audit.tx(), code, now).await?;
    audit.finish_if(revoked).await?.ok_or_else(|| {
        AdminError::Invalid(
            "Only an invite that was neither redeemed nor revoked can be revoked".into(),
        )
    })
}

/// Puts an address on the suppression list: nothing is sent to it any more.
pub async fn suppress(
    ctx: &Context,
    actor: &str,
    email: &str,
    reason: Option<&str>,
) -> AdminResult<AuditEntry> {
    let email = normalize_email(email);
    if !crate::accounts::is_valid_email(&email) {
        return Err(AdminError::Invalid(
            "Please enter a valid email address".into(),
        ));
    }
    let now = ctx.now_ms();
    let change = Change::new(actor, "unsubscribe.add", "unsubscribe", &email)
        .snapshot(&ADMIN_UNSUBSCRIBE_SNAPSHOT, Arg::text(&email))
        .reason(
            reason
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_string),
        );
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let added = suppression::suppress(audit.tx(), &email, "admin", now).await?;
    audit
        .finish_if(added)
        .await?
        .ok_or_else(|| AdminError::Invalid(format!("{email} is already on the suppression list")))
}

/// Takes an address off the suppression list; the reason is required and kept in the audit log.
pub async fn unsuppress(
    ctx: &Context,
    actor: &str,
    email: &str,
    reason: &str,
) -> AdminResult<AuditEntry> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AdminError::Invalid(
            "Please give a reason for removing this address".into(),
        ));
    }
    let email = normalize_email(email);
    let now = ctx.now_ms();
    let change = Change::new(actor, "unsubscribe.remove", "unsubscribe", &email)
        .snapshot(&ADMIN_UNSUBSCRIBE_SNAPSHOT, Arg::text(&email))
        .reason(Some(reason.to_string()));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let removed = suppression::unsuppress(audit.tx(), &email).await?;
    audit
        .finish_if(removed)
        .await?
        .ok_or_else(|| AdminError::NotFound(format!("{email} is not on the suppression list")))
}

/// Puts one failed (or killed) job back in the queue with a fresh attempt count.
pub async fn retry_job(ctx: &Context, actor: &str, id: &str) -> AdminResult<AuditEntry> {
    let now = ctx.now_ms();
    let change =
        Change::new(actor, "job.retry", "job", id).snapshot(&ADMIN_JOB_SNAPSHOT, Arg::text(id));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let retried = queue::retry_jobs(audit.tx(), Some(id), None, now).await?;
    audit.finish_if(!retried.is_empty()).await?.ok_or_else(|| {
        AdminError::Invalid(format!(
            "Job {id} is not failed (or does not exist); only failed or cancelled jobs are retried"
        ))
    })
}

/// Puts every failed (or killed) job of a kind back in the queue; None when there was none.
pub async fn retry_failed(
    ctx: &Context,
    actor: &str,
    kind: &str,
) -> AdminResult<Option<AuditEntry>> {
    if !platform::jobs::KINDS.contains(&kind) {
        return Err(AdminError::Invalid(format!("Unknown job kind {kind}")));
    }
    let now = ctx.now_ms();
    let change = Change::new(actor, "job.retry_failed", "job_kind", kind);
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let retried = queue::retry_jobs(audit.tx(), None, Some(kind), now).await?;
    Ok(audit.finish_if(!retried.is_empty()).await?)
}

/// Cancels a job that has not started: it is never run.
pub async fn cancel_job(ctx: &Context, actor: &str, id: &str) -> AdminResult<AuditEntry> {
    let now = ctx.now_ms();
    let change =
        Change::new(actor, "job.cancel", "job", id).snapshot(&ADMIN_JOB_SNAPSHOT, Arg::text(id));
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let cancelled = queue::cancel_job(audit.tx(), id).await?;
    audit.finish_if(cancelled).await?.ok_or_else(|| {
        AdminError::Invalid(format!(
            "Job {id} is not waiting in the queue; only a queued job can be cancelled"
        ))
    })
}

/// One campaign across users.
pub async fn find_campaign(ctx: &Context, id: i64) -> AdminResult<AdminCampaign> {
    let page = listing::CAMPAIGNS
        .page(None, true, 1, 0)
        .expect("default order");
    let (mut rows, _) = ctx
        .db
        .admin()
        .admin_campaigns(&Filter::default(), Some(id), &page)
        .await?;
    rows.pop()
        .ok_or_else(|| AdminError::NotFound(format!("No campaign with id {id}")))
}

/// Pauses a sending campaign of any user; it waits for a resume (by its owner or an administrator).
pub async fn pause_campaign(ctx: &Context, actor: &str, id: i64) -> AdminResult<AuditEntry> {
    let campaign = owned_campaign(ctx, id).await?;
    let now = ctx.now_ms();
    let change = campaign_control(actor, "campaign.pause", id);
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    control::pause_in(audit.tx(), &campaign, PausedBy::Operator, now).await?;
    let entry = audit.finish().await?;
    telemetry::campaign_paused(PauseReason::Operator);
    Ok(entry)
}

/// Resumes a paused campaign: its queued messages get sending jobs again, within the limits as always.
pub async fn resume_campaign(ctx: &Context, actor: &str, id: i64) -> AdminResult<AuditEntry> {
    let campaign = owned_campaign(ctx, id).await?;
    let now = ctx.now_ms();
    let change = campaign_control(actor, "campaign.resume", id);
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    control::resume_in(audit.tx(), &campaign, now).await?;
    let entry = audit.finish().await?;
    control::resumed(ctx, id, now).await?;
    Ok(entry)
}

/// A campaign as its owner's controls read it, whoever owns it.
async fn owned_campaign(ctx: &Context, id: i64) -> AdminResult<crate::campaigns::CampaignRow> {
    let missing = || AdminError::NotFound(format!("No campaign with id {id}"));
    let owner = ctx
        .db
        .campaigns()
        .campaign_owner(id)
        .await?
        .ok_or_else(missing)?;
    ctx.db
        .campaigns()
        .find_campaign(id, owner)
        .await?
        .ok_or_else(missing)
}

fn campaign_control(actor: &str, action: &'static str, id: i64) -> Change {
    Change::new(actor, action, "campaign", id).snapshot(&ADMIN_CAMPAIGN_SNAPSHOT, Arg::int(id))
}

/// Runs a search's failed or missing chunks again: the search is running again from the chunk after the last
/// one done. Returns the audit entry (its `after` names that chunk).
pub async fn reprocess_search(ctx: &Context, actor: &str, id: i64) -> AdminResult<AuditEntry> {
    let search = ctx
        .db
        .discovery()
        .load_search(id)
        .await?
        .ok_or_else(|| AdminError::NotFound(format!("No search with id {id}")))?;
    let next = search.chunks_done + 1;
    let now = ctx.now_ms();
    let change = Change::new(actor, "search.reprocess", "search", id).after(
        json!({ "status": "running", "fromChunk": next, "chunksTotal": search.chunks_total }),
    );
    let mut audit = ctx.db.admin().audit(&change, now).await?;
    let reopened = search::reopen(audit.tx(), id).await?;
    let entry = audit.finish_if(reopened).await?.ok_or_else(|| {
        AdminError::Invalid(format!(
            "Search {id} is {}: only a failed or unfinished search has chunks to run again",
            search.status.as_str()
        ))
    })?;
    let job = RunSearchChunk {
        search_id: id,
        chunk_number: next,
    };
    let key = format!("reprocess:search:{id}:chunk:{next}:{now}");
    ctx.queue.enqueue(job, Some(&key)).await?;
    Ok(entry)
}

/// Which businesses to look up again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnrichmentScope {
    /// Every business whose website could not be read, or whose lookup never finished.
    Failed,
    Business(i64),
}

/// Queues website lookups again; None when there was nothing to look up.
pub async fn reprocess_enrichment(
    ctx: &Context,
    actor: &str,
    scope: EnrichmentScope,
) -> AdminResult<Option<AuditEntry>> {
    let (ids, target) = match scope {
        EnrichmentScope::Failed => {
            let sql = ADMIN_ENRICHMENT_FAILED.sql(&ctx.db);
            let ids: Vec<i64> =
                on_db!(&ctx.db, pool => sqlx::query_scalar(sql).fetch_all(pool).await)?;
            (ids, "failed".to_string())
        }
        EnrichmentScope::Business(id) => {
            if ctx.db.discovery().load_enrich_target(id).await?.is_none() {
                return Err(AdminError::NotFound(format!("No business with id {id}")));
            }
            (vec![id], id.to_string())
        }
    };
    if ids.is_empty() {
        return Ok(None);
    }
    let now = ctx.now_ms();
    for id in &ids {
        ctx.request_enrichment(*id, &format!("reprocess:enrich:{id}:{now}"))
            .await?;
    }
    let change = Change::new(actor, "enrichment.reprocess", "enrichment", target)
        .after(json!({ "businesses": ids }));
    let audit = ctx.db.admin().audit(&change, now).await?;
    Ok(Some(audit.finish().await?))
}

/// Reads the prospects' replies received since `since_ms` again (a second reading replaces the first; an answer
/// already written is never written twice). None when there was none.
pub async fn reprocess_replies(
    ctx: &Context,
    actor: &str,
    since_ms: i64,
) -> AdminResult<Option<AuditEntry>> {
    let sql = ADMIN_REPLIES_SINCE.sql(&ctx.db);
    let ids: Vec<i64> =
        on_db!(&ctx.db, pool => sqlx::query_scalar(sql).bind(since_ms).fetch_all(pool).await)?;
    if ids.is_empty() {
        return Ok(None);
    }
    let now = ctx.now_ms();
    let jobs: Vec<(ClassifyReply, String)> = ids
        .iter()
        .map(|&inbound_id| {
            (
                ClassifyReply { inbound_id },
                format!("reclassify:{inbound_id}:{now}"),
            )
        })
        .collect();
    ctx.queue.enqueue_all(jobs).await?;
    let change = Change::new(
        actor,
        "replies.reprocess",
        "replies",
        platform::clock::iso(since_ms),
    )
    .after(json!({ "replies": ids }));
    let audit = ctx.db.admin().audit(&change, now).await?;
    Ok(Some(audit.finish().await?))
}
