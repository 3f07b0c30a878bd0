//! What an automation and each of its runs sent, counted one way wherever it is shown: Run Now's answer (its
//! toast), the automation's card, the Automation Reports, the analytics and the console. A message counts as sent
//! once its server took it (whatever tracking learnt since: delivered, opened, bounced), as waiting while it is
//! queued or being sent, and as failed when it failed. A run counts only the emails it wrote itself.

use std::collections::HashMap;

use serde::Serialize;

use super::ReportLine;
use super::store::{RunListRow, RunRow, RunStatus};
use crate::platform::clock::Timestamp;
use crate::platform::db::{Db, StoreResult};
use crate::sending::messages::MessageStatus;

/// Messages by how far they got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    pub sent: i64,
    pub waiting: i64,
    pub failed: i64,
}

impl Sent {
    fn count(&mut self, status: MessageStatus) {
        match status {
            MessageStatus::Queued | MessageStatus::Sending => self.waiting += 1,
            MessageStatus::Failed => self.failed += 1,
            MessageStatus::Skipped => {}
            MessageStatus::Sent
            | MessageStatus::Delivered
            | MessageStatus::Opened
            | MessageStatus::Replied
            | MessageStatus::Bounced
            | MessageStatus::Spam => self.sent += 1,
        }
    }
}

/// One business of a run's result (B §3 run result).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportItem {
    pub business_name: String,
    pub email: String,
    /// The state of the email written for it (sent, delivered, opened, queued, sending, failed...), or skipped.
    pub status: MessageStatus,
}

/// B §3 Automation run result, with the run to poll while it is still running.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub run_id: i64,
    pub status: RunStatus,
    pub emails_sent: i64,
    /// Written by this run and not sent yet (queued, or being sent).
    pub emails_waiting: i64,
    pub emails_failed: i64,
    pub emails_report: Vec<ReportItem>,
    pub businesses_found: i64,
    /// Why it sent nothing (it ended, its template is gone).
    pub message: Option<String>,
}

impl RunResult {
    /// The run searched and wrote its emails (they may still wait in the queue).
    pub fn started(&self) -> bool {
        self.status != RunStatus::Running
    }

    /// The run finished and its emails left the queue.
    pub fn settled(&self) -> bool {
        self.started() && self.emails_waiting == 0
    }
}

/// A run record as the Automation Reports list shows it (B §3 Automation run record).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunRecord {
    pub id: i64,
    pub automation_id: Option<i64>,
    pub automation_name: String,
    pub run_date: Timestamp,
    /// The run's emails sent so far.
    pub emails_sent: i64,
    /// The run's emails not sent yet.
    pub emails_waiting: i64,
    pub businesses_targeted: i64,
    pub businesses_found: i64,
    pub status: RunStatus,
    /// Run Now rather than the daily schedule.
    pub manual: bool,
    /// Why it sent nothing (ended, paused, a failure).
    pub error: Option<String>,
    pub campaign_name: String,
}

/// The lines of a run's stored report.
fn report_lines(report: &str) -> Vec<ReportLine> {
    serde_json::from_str(report).unwrap_or_default()
}

/// The states of the messages these reports name, in one read.
async fn states(db: &Db, reports: &[&[ReportLine]]) -> StoreResult<HashMap<i64, MessageStatus>> {
    let ids: Vec<i64> = reports
        .iter()
        .flat_map(|lines| lines.iter().filter_map(|line| line.message_id))
        .collect();
    Ok(db
        .sending()
        .load_messages(&ids)
        .await?
        .into_iter()
        .map(|message| (message.id, message.status))
        .collect())
}

/// A run's result: each business it reported with the state of its email now, and the run's own figures.
pub async fn run_result(db: &Db, run: &RunRow) -> StoreResult<RunResult> {
    let lines = report_lines(&run.report);
    let states = states(db, &[&lines]).await?;
    let mut sent = Sent::default();
    let emails_report = lines
        .into_iter()
        .map(|line| {
            let status = line
                .message_id
                .and_then(|id| states.get(&id).copied())
                .unwrap_or(MessageStatus::Skipped);
            sent.count(status);
            ReportItem {
                business_name: line.business_name,
                email: line.email,
                status,
            }
        })
        .collect();
    Ok(RunResult {
        run_id: run.id,
        status: run.status,
        emails_sent: sent.sent,
        emails_waiting: sent.waiting,
        emails_failed: sent.failed,
        emails_report,
        businesses_found: run.businesses_found,
        message: run.error.clone(),
    })
}

/// A user's latest runs, newest first, each with its own emails' figures now.
pub async fn run_records(db: &Db, user_id: i64, limit: i64) -> StoreResult<Vec<RunRecord>> {
    let rows: Vec<RunListRow> = db.automations().automation_runs(user_id, limit).await?;
    let reports: Vec<Vec<ReportLine>> = rows.iter().map(|row| report_lines(&row.report)).collect();
    let borrowed: Vec<&[ReportLine]> = reports.iter().map(Vec::as_slice).collect();
    let states = states(db, &borrowed).await?;
    Ok(rows
        .into_iter()
        .zip(reports)
        .map(|(row, lines)| {
            let mut sent = Sent::default();
            for id in lines.iter().filter_map(|line| line.message_id) {
                sent.count(states.get(&id).copied().unwrap_or(MessageStatus::Skipped));
            }
            RunRecord {
                id: row.id,
                automation_id: row.automation_id,
                automation_name: row.automation_name,
                run_date: Timestamp(row.started_at),
                emails_sent: sent.sent,
                emails_waiting: sent.waiting,
                businesses_targeted: row.businesses_targeted,
                businesses_found: row.businesses_found,
                status: row.status,
                manual: row.manual,
                error: row.error,
                campaign_name: row.campaign_name,
            }
        })
        .collect())
}
