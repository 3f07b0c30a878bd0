//! Automations and their runs as stored.

use super::settings::Settings;
use crate::platform::clock::date_of;
use crate::platform::db::{BeginWrite, StoreResult};
use crate::platform::queries::*;
use crate::{on_db, on_writer};

crate::capability_store!(
    /// The automations capability's reads and writes: `db.automations()`.
    AutomationsStore,
    automations
);

/// An automation as stored, with its campaign's emails so far (see `figures`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AutomationRow {
    pub id: i64,
    pub user_id: i64,
    pub campaign_id: i64,
    pub campaign_name: String,
    pub business_type: String,
    pub geographic_area: String,
    pub radius: i32,
    pub max_businesses_per_day: i32,
    pub email_template_id: Option<i64>,
    pub max_total_emails: Option<i32>,
    pub campaign_duration_minutes: Option<i32>,
    pub is_active: bool,
    pub schedule: String,
    pub last_run_at: Option<i64>,
    pub ended_reason: Option<String>,
    pub created_at: i64,
    /// First emails written and not given up (skipped or failed): what its total counts.
    pub emails_written: i64,
    /// Its campaign's first emails and follow-ups sent.
    pub emails_sent: i64,
    /// Its campaign's first emails and follow-ups not sent yet.
    pub emails_waiting: i64,
    /// Its scheduled run of today (UTC) has started.
    pub ran_today: bool,
}

pub struct NewAutomation<'a> {
    pub user_id: i64,
    pub campaign_id: i64,
    pub settings: &'a Settings,
}

crate::text_enum! {
    /// Where an automation run is: running until its job records what it did, then completed (it searched and sent),
    /// ended (the automation reached its end), failed (it could not run) or skipped (paused, or deleted).
    pub enum RunStatus ("automation run status") {
        Running = "running",
        Completed = "completed",
        Ended = "ended",
        Failed = "failed",
        Skipped = "skipped",
    }
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RunRow {
    pub id: i64,
    pub automation_id: Option<i64>,
    pub user_id: i64,
    pub campaign_id: Option<i64>,
    pub automation_name: String,
    pub run_day: Option<String>,
    pub manual: bool,
    pub status: RunStatus,
    pub search_id: Option<i64>,
    pub businesses_found: i64,
    pub businesses_targeted: i64,
    pub emails_queued: i64,
    pub report: String,
    pub error: Option<String>,
    pub started_at: i64,
    pub finished_at: Option<i64>,
}

/// A run as the Automation Reports list reads it (its figures come from its report's messages: `figures`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RunListRow {
    pub id: i64,
    pub automation_id: Option<i64>,
    pub automation_name: String,
    pub started_at: i64,
    pub businesses_targeted: i64,
    pub businesses_found: i64,
    pub status: RunStatus,
    pub manual: bool,
    pub error: Option<String>,
    pub campaign_name: String,
    pub report: String,
}

impl AutomationsStore<'_> {
    /// First emails of an automation's campaign written since `since` (and not given up).
    pub async fn automation_emailed_since(&self, campaign_id: i64, since: i64) -> StoreResult<i64> {
        let sql = AUTOMATION_EMAILED_SINCE.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(campaign_id).bind(since).fetch_one(pool).await)
    }

    /// Runs running since before `before`.
    pub async fn running_automation_runs(&self, before: i64) -> StoreResult<Vec<i64>> {
        let sql = AUTOMATION_RUNNING_RUNS.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(before).fetch_all(pool).await)
    }

    /// Runs waiting for search `search_id` to end.
    pub async fn runs_waiting_for(&self, search_id: i64) -> StoreResult<Vec<i64>> {
        let sql = AUTOMATION_RUNS_WAITING_FOR.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(search_id).fetch_all(pool).await)
    }

    pub async fn insert_automation(&self, new: &NewAutomation<'_>, now: i64) -> StoreResult<i64> {
        let sql = AUTOMATION_INSERT.sql(self);
        let settings = new.settings;
        on_writer!(self, pool => sqlx::query_scalar(sql).bind(new.user_id).bind(new.campaign_id)
            .bind(&settings.campaign_name).bind(&settings.business_type).bind(&settings.geographic_area)
            .bind(settings.radius).bind(settings.max_businesses_per_day).bind(settings.email_template_id)
            .bind(settings.max_total_emails).bind(settings.campaign_duration_minutes).bind(settings.is_active)
            .bind(now).fetch_one(pool).await)
    }

    /// A user's automations as of `now` (whether each ran today).
    pub async fn list_automations(
        &self,
        user_id: i64,
        now: i64,
    ) -> StoreResult<Vec<AutomationRow>> {
        let sql = AUTOMATION_LIST.sql(self);
        let today = date_of(now).to_string();
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(&today).fetch_all(pool).await)
    }

    /// An automation of its owner, or anyone's with `None`, as of `now`.
    pub async fn find_automation(
        &self,
        id: i64,
        user_id: Option<i64>,
        now: i64,
    ) -> StoreResult<Option<AutomationRow>> {
        let sql = AUTOMATION_FIND.sql(self);
        let today = date_of(now).to_string();
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).bind(&today).fetch_optional(pool).await)
    }

    /// Writes an owner's automation's settings and why it ended (none: it runs).
    pub async fn update_automation(
        &self,
        id: i64,
        user_id: i64,
        settings: &Settings,
        ended_reason: Option<&str>,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = AUTOMATION_UPDATE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(&settings.campaign_name)
            .bind(&settings.business_type).bind(&settings.geographic_area).bind(settings.radius)
            .bind(settings.max_businesses_per_day).bind(settings.email_template_id).bind(settings.max_total_emails)
            .bind(settings.campaign_duration_minutes).bind(settings.is_active).bind(ended_reason).bind(now)
            .execute(pool).await.map(|done| done.rows_affected() == 1))
    }

    pub async fn delete_automation(&self, id: i64, user_id: i64) -> StoreResult<bool> {
        let sql = AUTOMATION_DELETE.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(id).bind(user_id).execute(pool).await
            .map(|done| done.rows_affected() == 1))
    }

    /// The day's run of every automation that runs today and has none yet: (automation, run) of each new one.
    pub async fn start_day(&self, day: &str, now: i64) -> StoreResult<Vec<(i64, i64)>> {
        let sql = AUTOMATION_START_DAY.sql(self);
        on_writer!(self, pool => sqlx::query_as(sql).bind(day).bind(now).fetch_all(pool).await)
    }

    /// A run record; none when the automation is gone or a scheduled run of that day exists.
    pub async fn insert_run(
        &self,
        automation_id: i64,
        day: Option<&str>,
        manual: bool,
        now: i64,
    ) -> StoreResult<Option<i64>> {
        let sql = AUTOMATION_INSERT_RUN.sql(self);
        on_writer!(self, pool => sqlx::query_scalar(sql).bind(automation_id).bind(day).bind(manual).bind(now)
            .fetch_optional(pool).await)
    }

    /// A run of its owner, or anyone's with `None`.
    pub async fn find_run(&self, id: i64, user_id: Option<i64>) -> StoreResult<Option<RunRow>> {
        let sql = AUTOMATION_FIND_RUN.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).bind(user_id).fetch_optional(pool).await)
    }

    pub async fn set_run_search(&self, run_id: i64, search_id: i64) -> StoreResult<()> {
        let sql = AUTOMATION_SET_RUN_SEARCH.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(run_id).bind(search_id).execute(pool).await.map(|_| ()))
    }

    /// Run `run_id` takes its automation's turn to pick and launch; false while another run holds it.
    pub async fn take_automation_turn(&self, automation_id: i64, run_id: i64) -> StoreResult<bool> {
        let sql = AUTOMATION_TAKE_TURN.sql(self);
        let taken: Option<i64> = on_writer!(self, pool => sqlx::query_scalar(sql).bind(automation_id).bind(run_id)
            .fetch_optional(pool).await)?;
        Ok(taken.is_some())
    }

    pub async fn end_automation_turn(&self, automation_id: i64, run_id: i64) -> StoreResult<()> {
        let sql = AUTOMATION_END_TURN.sql(self);
        on_writer!(self, pool => sqlx::query(sql).bind(automation_id).bind(run_id).execute(pool).await.map(drop))
    }

    /// A run ends with what it did, and its automation with it: ran at `now`, ended for good when `ended` says
    /// why, its turn given back. One transaction, so a run stopped halfway (a panic, a worker killed) is still
    /// running for the queue's retry, and nobody reads a run ended whose automation does not say so yet.
    #[allow(clippy::too_many_arguments)]
    pub async fn finish_run(
        &self,
        run_id: i64,
        automation_id: Option<i64>,
        status: RunStatus,
        found: i64,
        targeted: i64,
        queued: i64,
        report: &str,
        error: Option<&str>,
        ended: Option<&str>,
        now: i64,
    ) -> StoreResult<()> {
        let (finish, ran, end_turn) = (
            AUTOMATION_FINISH_RUN.sql(self),
            AUTOMATION_RAN.sql(self),
            AUTOMATION_END_TURN.sql(self),
        );
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(finish).bind(run_id).bind(status).bind(found).bind(targeted).bind(queued).bind(report)
                .bind(error).bind(now).execute(&mut *tx).await?;
            crate::platform::faults::point_with("automation-run-ended", || run_id.to_string());
            if let Some(automation_id) = automation_id {
                sqlx::query(ran).bind(automation_id).bind(now).bind(ended).execute(&mut *tx).await?;
                sqlx::query(end_turn).bind(automation_id).bind(run_id).execute(&mut *tx).await?;
            }
            tx.commit().await
        })?;
        Ok(())
    }

    pub async fn automation_runs(&self, user_id: i64, limit: i64) -> StoreResult<Vec<RunListRow>> {
        let sql = AUTOMATION_RUNS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).bind(limit).fetch_all(pool).await)
    }

    /// A campaign's emails sent, opened and replied (its counters).
    pub async fn automation_counts(&self, campaign_id: i64) -> StoreResult<(i64, i64, i64)> {
        let sql = AUTOMATION_ANALYTICS.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(campaign_id).fetch_one(pool).await)
    }

    /// Businesses an automation may email, at most `limit`.
    pub async fn automation_candidates(
        &self,
        user_id: i64,
        campaign_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<i64>> {
        if limit <= 0 {
            return Ok(Vec::new());
        }
        let sql = AUTOMATION_CANDIDATES.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(campaign_id).bind(limit).fetch_all(pool).await)
    }
}
