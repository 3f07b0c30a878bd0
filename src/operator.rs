//! The operator's command line beside `outreach jobs`: `users`, `senders`, `campaigns` and `reprocess`. Each change goes
//! through the same action as the console (`outreach_core::admin`), so it writes the same audit entry (actor
//! `cli`); `--json` prints what the command did (the audit entry, or the records) as JSON.

use clap::{ArgGroup, Args, Subcommand};
use outreach_core::Context;
use outreach_core::accounts::Grant;
use outreach_core::admin::audit::{AuditEntry, CLI_ACTOR};
use outreach_core::admin::listing::{self, AdminSender, AdminUser, Filter, USER_GROUPS};
use outreach_core::admin::{self, EnrichmentScope, UserAction};
use outreach_core::platform::clock::{iso, parse_moment};
use serde::Serialize;

#[derive(Subcommand)]
pub enum UsersCommand {
    /// List users, newest first.
    List {
        /// waiting (for access), trial, premium, expired or administrators.
        #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(USER_GROUPS))]
        group: Option<String>,
        /// Text to look for in the email and the name.
        #[arg(long)]
        search: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Show one user with the emails sent in the last 30 days.
    Show { email: String },
    /// Grant premium access with a monthly email limit for 30 days (the account is created if needed).
    Grant {
        email: String,
        #[arg(long)]
        limit: i64,
    },
    /// Set a free trial (the account is created if needed).
    Trial { email: String },
    /// Activate an account (let someone in from the waiting screen).
    Activate { email: String },
}

#[derive(Subcommand)]
pub enum SendersCommand {
    /// List senders across users with their health (in rotation, at their cap, warming up, or out and why) and
    /// the campaigns whose pools they are in.
    List {
        /// Text to look for in the address and the owner's email.
        #[arg(long)]
        search: Option<String>,
        #[arg(long, default_value_t = 100)]
        limit: i64,
    },
}

#[derive(Subcommand)]
pub enum CampaignsCommand {
    /// Pause a sending campaign of any user.
    Pause { id: i64 },
    /// Resume a paused campaign.
    Resume { id: i64 },
}

#[derive(Subcommand)]
pub enum ReprocessCommand {
    /// Run a search's failed or missing chunks again.
    Search { id: i64 },
    /// Look businesses' websites up again.
    Enrichment(EnrichmentArgs),
    /// Read the prospects' replies received since a date again (an answer is never written twice).
    Replies {
        /// A date (2026-11-01, from its start in UTC) or an RFC 3339 time.
        #[arg(long)]
        since: String,
    },
}

#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).args(["failed", "business"])))]
pub struct EnrichmentArgs {
    /// Every business whose website could not be read, or whose lookup never finished.
    #[arg(long)]
    failed: bool,
    /// One business.
    #[arg(long)]
    business: Option<i64>,
}

/// Prints `value` as JSON, or its text.
fn report<T: Serialize>(
    json: bool,
    value: &T,
    text: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(value)?);
    } else {
        println!("{}", text());
    }
    Ok(())
}

/// An action's outcome: its audit entry, or that it changed nothing.
fn report_change(
    json: bool,
    entry: Option<AuditEntry>,
    done: &str,
    nothing: &str,
) -> anyhow::Result<()> {
    match entry {
        Some(entry) => report(json, &entry, || {
            format!("{done} (audit entry {})", entry.id)
        }),
        None => report(
            json,
            &serde_json::json!({ "changed": false, "message": nothing }),
            || nothing.to_string(),
        ),
    }
}

/// `outreach senders`.
pub async fn senders(ctx: &Context, command: SendersCommand, json: bool) -> anyhow::Result<()> {
    let SendersCommand::List { search, limit } = command;
    let filter = Filter {
        text: search.unwrap_or_default(),
        status: String::new(),
    };
    let page = listing::SENDERS
        .page(None, true, limit.clamp(1, 10_000), 0)
        .expect("default order");
    let (senders, total) = ctx
        .db
        .admin()
        .admin_senders(&filter, &page, ctx.now_ms())
        .await?;
    report(json, &senders, || {
        let mut lines: Vec<String> = senders.iter().map(sender_line).collect();
        lines.push(format!("{} of {total} sender(s)", senders.len()));
        lines.join("\n")
    })
}

fn sender_line(sender: &AdminSender) -> String {
    format!(
        "{:<6} {:<32} {:<28} {:<8} {:>5}/{:<5} {}{}",
        sender.id,
        sender.send_from,
        sender.user_email,
        sender.state,
        sender.used_today,
        sender.cap_today,
        sender.state_reason.as_deref().unwrap_or("-"),
        if sender.campaigns.is_empty() {
            String::new()
        } else {
            format!(" [pools: {}]", sender.campaigns.join(", "))
        }
    )
}

fn user_line(user: &AdminUser) -> String {
    format!(
        "{:<6} {:<32} {:<8} {:<8} {:<10} {:>6}/{:<6} {}",
        user.id,
        user.email,
        user.account_status,
        user.subscription_status,
        user.subscription_plan.as_deref().unwrap_or("-"),
        user.emails_used,
        user.email_limit,
        user.subscription_ends_at
            .map(|ends| iso(ends.0))
            .unwrap_or_default()
    )
}

pub async fn users(ctx: &Context, command: UsersCommand, json: bool) -> anyhow::Result<()> {
    let administrators = &ctx.settings.auth.admin_emails;
    match command {
        UsersCommand::List {
            group,
            search,
            limit,
        } => {
            let filter = Filter {
                text: search.unwrap_or_default(),
                status: group.unwrap_or_default(),
            };
            let page = listing::USERS
                .page(None, true, limit.clamp(1, 10_000), 0)
                .expect("default order");
            let (users, total) = ctx
                .db
                .admin()
                .admin_users(&filter, administrators, &page, ctx.now_ms())
                .await?;
            report(json, &users, || {
                let mut lines: Vec<String> = users.iter().map(user_line).collect();
                lines.push(format!("{} of {total} user(s)", users.len()));
                lines.join("\n")
            })
        }
        UsersCommand::Show { email } => {
            let email = outreach_core::accounts::normalize_email(&email);
            let found = ctx.db.accounts().find_user_by_email(&email).await?;
            let Some(found) = found else {
                anyhow::bail!("No user found with email {email}");
            };
            let user = ctx.db.admin().admin_user(found.id, ctx.now_ms()).await?;
            let user = user.ok_or_else(|| anyhow::anyhow!("No user found with email {email}"))?;
            report(json, &user, || user_line(&user))
        }
        UsersCommand::Grant { email, limit } => {
            if limit < 1 {
                anyhow::bail!("Email limit must be a positive number");
            }
            let action = UserAction::Grant(Grant::Premium { email_limit: limit });
            let entry = admin::change_user(ctx, CLI_ACTOR, &email, action).await?;
            let done = format!(
                "User {email} has been granted premium access with {limit} emails for {} days",
                outreach_core::accounts::PREMIUM_DAYS
            );
            report_change(json, entry, &done, "Nothing changed")
        }
        UsersCommand::Trial { email } => {
            let action = UserAction::Grant(Grant::FreeTrial);
            let entry = admin::change_user(ctx, CLI_ACTOR, &email, action).await?;
            let done = format!("User {email} has been set to free trial status");
            report_change(json, entry, &done, "Nothing changed")
        }
        UsersCommand::Activate { email } => {
            let entry = admin::change_user(ctx, CLI_ACTOR, &email, UserAction::Activate).await?;
            let done = format!("User {email} has been activated");
            report_change(
                json,
                entry,
                &done,
                &format!("User {email} was already active"),
            )
        }
    }
}

pub async fn campaigns(ctx: &Context, command: CampaignsCommand, json: bool) -> anyhow::Result<()> {
    let (entry, done) = match command {
        CampaignsCommand::Pause { id } => (
            admin::pause_campaign(ctx, CLI_ACTOR, id).await?,
            format!("Campaign {id} is paused"),
        ),
        CampaignsCommand::Resume { id } => (
            admin::resume_campaign(ctx, CLI_ACTOR, id).await?,
            format!("Campaign {id} is sending again"),
        ),
    };
    report_change(json, Some(entry), &done, "")
}

pub async fn reprocess(ctx: &Context, command: ReprocessCommand, json: bool) -> anyhow::Result<()> {
    match command {
        ReprocessCommand::Search { id } => {
            let entry = admin::reprocess_search(ctx, CLI_ACTOR, id).await?;
            let done = format!("Search {id} is running again from its next chunk");
            report_change(json, Some(entry), &done, "")
        }
        ReprocessCommand::Enrichment(args) => {
            let scope = match args.business {
                Some(id) => EnrichmentScope::Business(id),
                None => EnrichmentScope::Failed,
            };
            let entry = admin::reprocess_enrichment(ctx, CLI_ACTOR, scope).await?;
            let count = entry
                .as_ref()
                .map(|entry| queued(entry, "businesses"))
                .unwrap_or(0);
            let done = format!("Queued the website lookup of {count} business(es) again");
            report_change(
                json,
                entry,
                &done,
                "No business has a failed website lookup",
            )
        }
        ReprocessCommand::Replies { since } => {
            let since_ms = parse_moment(&since).ok_or_else(|| {
                anyhow::anyhow!("--since must be a date (2026-11-01) or an RFC 3339 time")
            })?;
            let entry = admin::reprocess_replies(ctx, CLI_ACTOR, since_ms).await?;
            let count = entry
                .as_ref()
                .map(|entry| queued(entry, "replies"))
                .unwrap_or(0);
            let done = format!("Queued {count} reply(ies) to be read again");
            report_change(
                json,
                entry,
                &done,
                &format!("No reply was received since {}", iso(since_ms)),
            )
        }
    }
}

/// How many records an enqueueing action's audit entry lists under `key`.
fn queued(entry: &AuditEntry, key: &str) -> usize {
    entry
        .after
        .as_deref()
        .and_then(|after| serde_json::from_str::<serde_json::Value>(after).ok())
        .and_then(|after| after[key].as_array().map(Vec::len))
        .unwrap_or(0)
}
