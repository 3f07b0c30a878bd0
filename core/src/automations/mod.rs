//! Automations (issue 21, B §2.5, §2.6, §3, §4): each day an active automation finds new businesses of a type in an
//! area through the same search providers and chunks as the builder, and emails up to its daily number of those
//! with an address with its template, through a campaign of its own, like any launch (quota, daily cap, window,
//! pacing, the template's follow-ups, exactly once). A business this user already emailed in any campaign, or a
//! suppressed address, is never picked. It stops for good once it has sent its total or its duration is over.

pub mod figures;
pub mod settings;
pub mod store;
pub mod test;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

pub use self::settings::{AutomationForm, Settings};
use self::store::{AutomationRow, NewAutomation, RunRow, RunStatus};
use crate::Context;
use crate::campaigns::CampaignStatus;
use crate::campaigns::store::NewCampaign;
use crate::discovery::resume::queue_chunk;
use crate::discovery::search::{SearchParams, SearchStatus};
use crate::platform::clock::{Clock, DAY_MS, SystemClock, Timestamp};
use crate::platform::jobs::RunAutomation;
use crate::platform::queue::QueueError;
use crate::sending::launch::{launch_campaign, valid_address};

/// How often automations run (B §9).
pub const SCHEDULE: &str = "Daily";

/// How long a run waits for its search before it emails what was found so far (milliseconds).
const SEARCH_WAIT_MS: i64 = 120_000;

/// An automation as the API answers (B §3 Automation, with its campaign, the emails it sent and why it ended).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationView {
    pub id: i64,
    pub campaign_id: i64,
    pub campaign_name: String,
    pub business_type: String,
    pub geographic_area: String,
    /// Miles.
    pub radius: i32,
    pub max_businesses_per_day: i32,
    pub email_template_id: Option<i64>,
    pub max_total_emails: Option<i32>,
    pub campaign_duration_minutes: Option<i32>,
    pub is_active: bool,
    pub last_run: Option<Timestamp>,
    /// The next daily run: now when today's has not started yet (the scheduler starts it within a minute), else the
    /// start of the next UTC day; none when paused or ended.
    pub next_run: Option<Timestamp>,
    pub schedule: String,
    /// Its campaign's emails sent (first emails and follow-ups), as its analytics count them.
    pub emails_sent: i64,
    /// Its campaign's emails not sent yet.
    pub emails_waiting: i64,
    /// First emails written toward its total.
    pub emails_written: i64,
    /// Why it stopped for good.
    pub ended_reason: Option<String>,
    pub created_at: Timestamp,
    /// The senders its emails go from (its campaign's pool); empty: the default sender.
    pub email_config_ids: Vec<i64>,
}

impl AutomationRow {
    pub fn settings(&self) -> Settings {
        Settings {
            campaign_name: self.campaign_name.clone(),
            business_type: self.business_type.clone(),
            geographic_area: self.geographic_area.clone(),
            radius: self.radius,
            max_businesses_per_day: self.max_businesses_per_day,
            email_template_id: self.email_template_id.unwrap_or_default(),
            max_total_emails: self.max_total_emails,
            campaign_duration_minutes: self.campaign_duration_minutes,
            is_active: self.is_active,
        }
    }

    pub fn view(&self, now: i64) -> AutomationView {
        let running = self.is_active && self.ended_reason.is_none();
        AutomationView {
            id: self.id,
            campaign_id: self.campaign_id,
            campaign_name: self.campaign_name.clone(),
            business_type: self.business_type.clone(),
            geographic_area: self.geographic_area.clone(),
            radius: self.radius,
            max_businesses_per_day: self.max_businesses_per_day,
            email_template_id: self.email_template_id,
            max_total_emails: self.max_total_emails,
            campaign_duration_minutes: self.campaign_duration_minutes,
            is_active: self.is_active,
            last_run: self.last_run_at.map(Timestamp),
            // The scheduler starts an active automation's run of the day within a minute, a new one's too: the
            // next run is now until today's has started, then the start of the next UTC day.
            next_run: running.then(|| {
                Timestamp(if self.ran_today {
                    now - now.rem_euclid(DAY_MS) + DAY_MS
                } else {
                    now
                })
            }),
            schedule: self.schedule.clone(),
            emails_sent: self.emails_sent,
            emails_waiting: self.emails_waiting,
            emails_written: self.emails_written,
            ended_reason: self.ended_reason.clone(),
            created_at: Timestamp(self.created_at),
            email_config_ids: Vec::new(),
        }
    }

    /// Why it stops for good at `now`, if it does: its total sent or its duration over.
    pub fn end(&self, now: i64) -> Option<String> {
        if let Some(total) = self.max_total_emails
            && self.emails_written >= i64::from(total)
        {
            return Some(format!("Ended: its {total} emails are sent"));
        }
        if let Some(minutes) = self.campaign_duration_minutes
            && now >= self.created_at + i64::from(minutes) * 60_000
        {
            return Some(format!("Ended: its {minutes} minutes are over"));
        }
        None
    }

    /// Businesses the next run may email: what is left of its daily number after the day's earlier runs
    /// (`emailed_today`: scheduled or Run Now), within what is left of its total.
    fn room(&self, emailed_today: i64) -> i64 {
        let per_day = (i64::from(self.max_businesses_per_day) - emailed_today).max(0);
        match self.max_total_emails {
            Some(total) => per_day.min(i64::from(total) - self.emails_written).max(0),
            None => per_day,
        }
    }
}

/// Creates an automation with its campaign (named after it, sending at any time: an automation's day is its own).
pub async fn create(ctx: &Context, user_id: i64, settings: &Settings) -> Result<i64, QueueError> {
    let now = ctx.now_ms();
    let window = ctx.settings.sending.default_window();
    let campaign = NewCampaign {
        name: &settings.campaign_name,
        status: CampaignStatus::Active,
        business_type: Some(&settings.business_type),
        geographic_area: Some(&settings.geographic_area),
        radius: settings.radius,
        max_results: search_size(settings.max_businesses_per_day),
        window: &window,
    };
    let campaign_id = ctx
        .db
        .campaigns()
        .insert_campaign(user_id, &campaign, now)
        .await?;
    let id = ctx
        .db
        .automations()
        .insert_automation(
            &NewAutomation {
                user_id,
                campaign_id,
                settings,
            },
            now,
        )
        .await?;
    Ok(id)
}

/// Businesses a run searches for: enough that those with an address fill the day (in OpenStreetMap data about one
/// business in seven or eight lists one; website enrichment finds more later).
fn search_size(per_day: i32) -> i32 {
    (per_day * 10).clamp(100, 200)
}

/// The scheduler's daily run: one run record and `RunAutomation` job per active automation and UTC day, keyed, so
/// two schedulers or a restart never run one twice; returns how many were started.
pub async fn start_daily_runs(ctx: &Context, day: &str) -> Result<usize, QueueError> {
    // The records in one statement, the jobs in one insert: a thousand automations start in two commits.
    let runs = ctx.db.automations().start_day(day, ctx.now_ms()).await?;
    let jobs = runs
        .into_iter()
        .map(|(automation_id, run_id)| {
            (
                RunAutomation { run_id },
                format!("automation:{automation_id}:{day}"),
            )
        })
        .collect();
    ctx.queue.enqueue_all(jobs).await
}

/// How long a run waits when another run of its automation is picking and launching.
const TURN_RETRY_MS: i64 = 1_000;

/// Gives a job to every run that has been running since before `before` with none left (its record was written and
/// the process died before its job was, or a turn's retry was lost); returns how many. A run's job that died with
/// its process is run again by the queue and finds its record running.
pub async fn resume_runs(ctx: &Context, before: i64) -> Result<usize, QueueError> {
    let running = ctx.db.automations().running_automation_runs(before).await?;
    ctx.queue
        .enqueue_missing(
            running,
            "run_id",
            "automation-run",
            ctx.now_ms(),
            |run_id| RunAutomation { run_id },
        )
        .await
}

/// Run Now: a run record and its job at once; returns the run's id.
pub async fn run_now(ctx: &Context, automation_id: i64) -> Result<Option<i64>, QueueError> {
    let Some(run_id) = ctx
        .db
        .automations()
        .insert_run(automation_id, None, true, ctx.now_ms())
        .await?
    else {
        return Ok(None);
    };
    ctx.queue
        .enqueue(
            RunAutomation { run_id },
            Some(&format!("automation-run:{run_id}")),
        )
        .await?;
    Ok(Some(run_id))
}

/// What a run did, for its record.
struct Outcome {
    status: RunStatus,
    found: i64,
    targeted: i64,
    queued: i64,
    report: Vec<ReportLine>,
    error: Option<String>,
    ended: Option<String>,
}

/// One business of a run's report (B §3 run result: businessName, email, status).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportLine {
    pub business_name: String,
    pub email: String,
    /// The message written for it, whose state is the line's status.
    pub message_id: Option<i64>,
}

/// The `RunAutomation` job: searches, picks and sends, and records what it did. A scheduled run of an automation
/// paused since is skipped; any run of an automation that ended (or ends now) sends nothing and says why.
pub async fn run(ctx: &Context, run_id: i64) -> anyhow::Result<()> {
    let Some(record) = ctx.db.automations().find_run(run_id, None).await? else {
        return Ok(());
    };
    if record.status != RunStatus::Running {
        return Ok(());
    }
    // Runs of one automation take turns: this one runs again a moment later, when the other has launched (and
    // reads the automation then, with what the other sent).
    if let Some(id) = record.automation_id
        && !ctx
            .db
            .automations()
            .take_automation_turn(id, run_id)
            .await?
    {
        // The queue keeps real time, whatever clock the context reads.
        let at = SystemClock.now_ms() + TURN_RETRY_MS;
        let key = format!("automation-run:{run_id}:turn:{at}");
        ctx.queue
            .enqueue_at(RunAutomation { run_id }, Some(&key), Some(at))
            .await?;
        return Ok(());
    }
    let outcome = match record.automation_id {
        None => skipped("The automation was deleted"),
        Some(id) => match ctx
            .db
            .automations()
            .find_automation(id, None, ctx.now_ms())
            .await?
        {
            None => skipped("The automation was deleted"),
            Some(automation) => match run_automation(ctx, &record, &automation).await? {
                Some(outcome) => outcome,
                // Its search runs: the search's end queues this run again (`search_ended`), and the turn is free.
                None => {
                    ctx.db.automations().end_automation_turn(id, run_id).await?;
                    return Ok(());
                }
            },
        },
    };
    let report = serde_json::to_string(&outcome.report).expect("plain values serialise");
    let now = ctx.now_ms();
    ctx.db
        .automations()
        .finish_run(
            run_id,
            record.automation_id,
            outcome.status,
            outcome.found,
            outcome.targeted,
            outcome.queued,
            &report,
            outcome.error.as_deref(),
            outcome.ended.as_deref(),
            now,
        )
        .await?;
    metrics::counter!("outreach_automation_runs_total", "outcome" => outcome.status.as_str())
        .increment(1);
    metrics::histogram!("outreach_automation_businesses_found").record(outcome.found as f64);
    metrics::histogram!("outreach_automation_businesses_emailed").record(outcome.queued as f64);
    Ok(())
}

fn skipped(why: &str) -> Outcome {
    Outcome {
        status: RunStatus::Skipped,
        found: 0,
        targeted: 0,
        queued: 0,
        report: Vec::new(),
        error: Some(why.into()),
        ended: None,
    }
}

/// What the run did; None while its search runs.
async fn run_automation(
    ctx: &Context,
    record: &RunRow,
    automation: &AutomationRow,
) -> anyhow::Result<Option<Outcome>> {
    if !record.manual && !automation.is_active {
        return Ok(Some(skipped("Paused")));
    }
    if let Some(reason) = automation
        .ended_reason
        .clone()
        .or_else(|| automation.end(ctx.now_ms()))
    {
        return Ok(Some(Outcome {
            status: RunStatus::Ended,
            error: Some(reason.clone()),
            ended: Some(reason),
            ..skipped("")
        }));
    }
    let Some(template_id) = automation.email_template_id else {
        return Ok(Some(Outcome {
            status: RunStatus::Failed,
            ..skipped("Its email template was deleted: choose another one")
        }));
    };
    let Some(found) = search(ctx, record, automation).await? else {
        return Ok(None);
    };
    let now = ctx.now_ms();
    let emailed_today = ctx
        .db
        .automations()
        .automation_emailed_since(automation.campaign_id, now - now.rem_euclid(DAY_MS))
        .await?;
    let ids = ctx
        .db
        .automations()
        .automation_candidates(
            automation.user_id,
            automation.campaign_id,
            automation.room(emailed_today),
        )
        .await?;
    let businesses = ctx
        .db
        .discovery()
        .find_businesses(&ids, automation.user_id)
        .await?;
    let launched = if businesses.is_empty() {
        None
    } else {
        Some(
            launch_campaign(
                ctx,
                automation.user_id,
                automation.campaign_id,
                template_id,
                &businesses,
                // Run Now executes immediately (B §7): its emails go now, even outside the sending window.
                record.manual,
            )
            .await?,
        )
    };
    // The run reports only the emails it wrote: a business another run took at the same moment is that run's.
    let written: HashSet<i64> = launched
        .map(|launched| launched.written.into_iter().collect())
        .unwrap_or_default();
    let messages = ctx
        .db
        .sending()
        .first_messages_to(automation.campaign_id, &ids)
        .await?;
    let report: Vec<ReportLine> = businesses
        .iter()
        .filter_map(|business| {
            let message_id = messages
                .get(&business.id)
                .map(|message| message.id)
                .filter(|id| written.contains(id))?;
            Some(ReportLine {
                business_name: business.name.clone(),
                email: business.email.clone().unwrap_or_default(),
                message_id: Some(message_id),
            })
        })
        .collect();
    let queued = businesses
        .iter()
        .filter(|business| {
            messages
                .get(&business.id)
                .is_some_and(|first| written.contains(&first.id))
                && valid_address(business.email.as_deref()).is_some()
        })
        .count() as i64;
    // Emailing the last of its total ends it for good now, so its card says so at once.
    let reached = automation
        .max_total_emails
        .filter(|total| automation.emails_written + queued >= i64::from(*total))
        .map(|total| format!("Ended: its {total} emails are sent"));
    Ok(Some(Outcome {
        status: RunStatus::Completed,
        found,
        targeted: report.len() as i64,
        queued,
        report,
        error: None,
        ended: reached,
    }))
}

/// The run's local search, through the builder's providers and chunks (the campaign remembers it): how many
/// businesses it found once it has ended, or once it has run for `SEARCH_WAIT_MS` (the run emails what was found so
/// far). None while it runs: no worker waits for it, as its end queues the run again (`search_ended`), and a run
/// whose search never says so is resumed by the scheduler (`resume_runs`).
async fn search(
    ctx: &Context,
    record: &RunRow,
    automation: &AutomationRow,
) -> anyhow::Result<Option<i64>> {
    let Some(search_id) = record.search_id else {
        let params = SearchParams {
            search_type: "local".into(),
            business_type: Some(automation.business_type.clone()),
            geographic_area: Some(automation.geographic_area.clone()),
            radius: Some(automation.radius),
            max_results: search_size(automation.max_businesses_per_day),
            online_business_type: None,
            topics: None,
            campaign_id: Some(automation.campaign_id),
        };
        let id = ctx
            .db
            .discovery()
            .insert_search(automation.user_id, &params, ctx.now_ms())
            .await?;
        ctx.db.automations().set_run_search(record.id, id).await?;
        queue_chunk(ctx, id, 1).await?;
        return Ok(None);
    };
    Ok(match ctx.db.discovery().load_search(search_id).await? {
        Some(search)
            if search.status == SearchStatus::Running
                && ctx.now_ms() - record.started_at < SEARCH_WAIT_MS =>
        {
            None
        }
        Some(search) => Some(i64::from(search.businesses_found)),
        None => Some(0),
    })
}

/// A chunk of search `search_id` ran: once the search has ended, the runs waiting for it go on.
pub async fn search_ended(ctx: &Context, search_id: i64) -> Result<(), QueueError> {
    let ended = ctx
        .db
        .discovery()
        .load_search(search_id)
        .await?
        .is_some_and(|search| search.status != SearchStatus::Running);
    if !ended {
        return Ok(());
    }
    for run_id in ctx.db.automations().runs_waiting_for(search_id).await? {
        let key = format!("automation-run:{run_id}:search:{search_id}");
        ctx.queue
            .enqueue(RunAutomation { run_id }, Some(&key))
            .await?;
    }
    Ok(())
}

/// Analytics of an automation's campaign (B §3 Automation analytics).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationAnalytics {
    pub emails_sent: i64,
    pub emails_opened: i64,
    pub emails_replied: i64,
    /// Opened of sent, a fraction from 0 to 1.
    pub open_rate: f64,
}

pub async fn analytics(
    ctx: &Context,
    automation: &AutomationRow,
) -> Result<AutomationAnalytics, sqlx::Error> {
    let (sent, opened, replied) = ctx
        .db
        .automations()
        .automation_counts(automation.campaign_id)
        .await?;
    Ok(AutomationAnalytics {
        emails_sent: sent,
        emails_opened: opened,
        emails_replied: replied,
        open_rate: if sent == 0 {
            0.0
        } else {
            opened as f64 / sent as f64
        },
    })
}
