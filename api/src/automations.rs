//! Automations (B §2.5, §2.6, §3, §7; issue 21): the user's automations, Pause/Start and edits, Run Now with its
//! result, each automation's analytics, the run records of Automation Reports, and the test that sends the
//! automation's email only to a test address.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::accounts::{is_valid_email, normalize_email};
use outreach_core::automations::figures::{self, RunRecord, RunResult};
use outreach_core::automations::store::AutomationRow;
use outreach_core::automations::{
    AutomationAnalytics, AutomationForm, AutomationView, analytics as automation_analytics, create,
    run_now,
};
use outreach_core::campaigns::ai_settings::{CertaintyThreshold, HumanApproval, ReplyTiming};
use outreach_core::campaigns::personalise::{Recipient, render, render_html};
use outreach_core::sending::launch::TestMessage;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::senders::configs::default_sender;
use crate::session::SignedIn;
use crate::test_sends::{TestResult, send_tests};
use outreach_core::platform::invalid::Invalid;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create_automation))
        .routes(routes!(update, delete))
        .routes(routes!(run))
        .routes(routes!(run_result))
        .routes(routes!(analytics))
        .routes(routes!(runs))
        .routes(routes!(test))
}

const NOT_FOUND: &str = "Automation not found";
/// How long Run Now waits for its run to search and send before answering with the run to poll.
const RUN_WAIT: std::time::Duration = std::time::Duration::from_secs(30);
/// Run records listed at most.
const RUNS_LISTED: i64 = 200;

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<AutomationRow> {
    state
        .ctx
        .db
        .find_automation(id, Some(user_id))
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn check_template(state: &AppState, template_id: i64, user_id: i64) -> ApiResult<()> {
    state
        .ctx
        .db
        .template_content(template_id, user_id)
        .await?
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found("Template not found"))
}

/// The user's automations, newest first.
#[utoipa::path(get, path = "/api/automations", tag = "automations", responses((status = 200, body = Vec<AutomationView>)))]
pub async fn list(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<AutomationView>>> {
    let now = state.ctx.now_ms();
    let rows = state.ctx.db.list_automations(user.id).await?;
    Ok(Json(rows.iter().map(|row| row.view(now)).collect()))
}

/// A new automation (radius 25, 10 a day, active unless given) with a campaign of its own named after it.
#[utoipa::path(post, path = "/api/automations", tag = "automations", request_body = AutomationForm, responses(
    (status = 201, body = AutomationView),
    (status = 404, description = "Template not found", body = ErrorBody),
    (status = 422, description = "Campaign name is required, Business type is required, Geographic area is required, Please select an email template, or a value out of range", body = ErrorBody)))]
pub async fn create_automation(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(form): JsonBody<AutomationForm>,
) -> ApiResult<Response> {
    let settings = form.apply(None).map_err(ApiError::validation)?;
    check_template(&state, settings.email_template_id, user.id).await?;
    let id = create(&state.ctx, user.id, &settings).await?;
    let row = owned(&state, id, user.id).await?;
    Ok((StatusCode::CREATED, Json(row.view(state.ctx.now_ms()))).into_response())
}

/// Changes an automation: Pause/Start (`isActive`) or any of the form's fields. Starting one that ended is refused
/// with why, unless the change gives it room again (a larger total, a longer duration).
#[utoipa::path(patch, path = "/api/automations/{id}", tag = "automations", params(("id" = i64, Path)), request_body = AutomationForm,
    responses(
        (status = 200, body = AutomationView),
        (status = 404, description = "Automation or template not found", body = ErrorBody),
        (status = 409, description = "The automation has ended", body = ErrorBody),
        (status = 422, description = "A value out of range or a required field emptied", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
    JsonBody(form): JsonBody<AutomationForm>,
) -> ApiResult<Json<AutomationView>> {
    let row = owned(&state, id, user.id).await?;
    let settings = form
        .apply(Some(&row.settings()))
        .map_err(ApiError::validation)?;
    if form.email_template_id.is_some() {
        check_template(&state, settings.email_template_id, user.id).await?;
    }
    let now = state.ctx.now_ms();
    let edited = AutomationRow {
        max_total_emails: settings.max_total_emails,
        campaign_duration_minutes: settings.campaign_duration_minutes,
        ..row.clone()
    };
    let ended = edited.end(now);
    if settings.is_active
        && form.is_active == Some(true)
        && let Some(reason) = &ended
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "ended",
            format!("This automation has ended. {reason}"),
        ));
    }
    let settings = outreach_core::automations::Settings {
        is_active: settings.is_active && ended.is_none(),
        ..settings
    };
    state
        .ctx
        .db
        .update_automation(id, user.id, &settings, ended.as_deref(), now)
        .await?;
    Ok(Json(owned(&state, id, user.id).await?.view(now)))
}

/// Deletes an automation; its campaign, with the emails already sent and their analytics, stays.
#[utoipa::path(delete, path = "/api/automations/{id}", tag = "automations", params(("id" = i64, Path)), responses(
    (status = 200, body = Done),
    (status = 404, description = "Automation not found", body = ErrorBody)))]
pub async fn delete(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<Done>> {
    if !state.ctx.db.delete_automation(id, user.id).await? {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(Json(Done {
        success: true,
        message: "Automation deleted".into(),
    }))
}

/// Run Now (B §7): the same run as the daily one, at once; answers its result once it searched and sent, or 202 with
/// the run to poll (`GET /api/automation-runs/{id}`) past a bound.
#[utoipa::path(post, path = "/api/automations/{id}/run", tag = "automations", params(("id" = i64, Path)), responses(
    (status = 200, body = RunResult),
    (status = 202, description = "Still running: poll the run", body = RunResult),
    (status = 404, description = "Automation not found", body = ErrorBody)))]
pub async fn run(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Response> {
    owned(&state, id, user.id).await?;
    let run_id = run_now(&state.ctx, id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let db = &state.ctx.db;
    let load = || async {
        let run = db
            .find_run(run_id, Some(user.id))
            .await?
            .ok_or_else(|| ApiError::not_found("Run not found"))?;
        Ok::<_, ApiError>(figures::run_result(db, &run).await?)
    };
    let result = crate::wait_for(RUN_WAIT, load, RunResult::settled).await?;
    let status = if result.settled() {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    Ok((status, Json(result)).into_response())
}

/// A run's result, to poll after Run Now.
#[utoipa::path(get, path = "/api/automation-runs/{id}", tag = "automations", params(("id" = i64, Path)), responses(
    (status = 200, body = RunResult),
    (status = 404, description = "Run not found", body = ErrorBody)))]
pub async fn run_result(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<RunResult>> {
    let run = state
        .ctx
        .db
        .find_run(id, Some(user.id))
        .await?
        .ok_or_else(|| ApiError::not_found("Run not found"))?;
    Ok(Json(figures::run_result(&state.ctx.db, &run).await?))
}

/// An automation's figures (B §3 Automation analytics), from its campaign's counters.
#[utoipa::path(get, path = "/api/automations/{id}/analytics", tag = "automations", params(("id" = i64, Path)), responses(
    (status = 200, body = AutomationAnalytics),
    (status = 404, description = "Automation not found", body = ErrorBody)))]
pub async fn analytics(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> ApiResult<Json<AutomationAnalytics>> {
    let row = owned(&state, id, user.id).await?;
    Ok(Json(automation_analytics(&state.ctx, &row).await?))
}

/// The user's run records, newest first (B §3 Automation run record; the Automation Reports tab).
#[utoipa::path(get, path = "/api/automation-runs", tag = "automations", responses((status = 200, body = Vec<RunRecord>)))]
pub async fn runs(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Vec<RunRecord>>> {
    Ok(Json(
        figures::run_records(&state.ctx.db, user.id, RUNS_LISTED).await?,
    ))
}

/// B §3 Automation test form.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AutomationTest {
    test_email: String,
    /// 1 to 5 (default 1).
    quantity: Option<i32>,
    automation_id: Option<i64>,
    email_template_id: Option<i64>,
    /// Saved as the automation's campaign AI settings (with an automation).
    auto_reply_enabled: Option<bool>,
    /// 0 to 1 (default 0.85).
    confidence_threshold: Option<f64>,
    /// 0 to 1440.
    auto_reply_delay_minutes: Option<i32>,
    require_human_approval: Option<bool>,
    /// 1 to 100 (default 20).
    auto_reply_max_per_day: Option<i32>,
    /// Branding of the automation's emails (saved with its campaign): the sender name and where replies go.
    from_name: Option<String>,
    from_email: Option<String>,
    reply_to_email: Option<String>,
    /// A signature added below the test emails.
    signature_name: Option<String>,
    signature_title: Option<String>,
    signature_company: Option<String>,
}

impl AutomationTest {
    /// B §5's limits, first failure first.
    fn validate(&self) -> Result<(), Invalid> {
        if !is_valid_email(&normalize_email(&self.test_email)) {
            return Err("Please enter a valid email address".into());
        }
        if !(1..=5).contains(&self.quantity.unwrap_or(1)) {
            return Err("Quantity must be between 1 and 5".into());
        }
        if self
            .confidence_threshold
            .is_some_and(|value| !(0.0..=1.0).contains(&value))
        {
            return Err("Confidence threshold must be between 0 and 1".into());
        }
        if self
            .auto_reply_delay_minutes
            .is_some_and(|value| !(0..=1440).contains(&value))
        {
            return Err("Reply delay must be between 0 and 1440 minutes".into());
        }
        if self
            .auto_reply_max_per_day
            .is_some_and(|value| !(1..=100).contains(&value))
        {
            return Err("Automatic answers a day must be between 1 and 100".into());
        }
        for address in [&self.from_email, &self.reply_to_email]
            .into_iter()
            .flatten()
        {
            if !address.trim().is_empty() && !is_valid_email(address.trim()) {
                return Err("Please enter a valid email address".into());
            }
        }
        Ok(())
    }

    /// The signature block, when any of its fields is filled.
    fn signature(&self) -> Option<String> {
        let lines: Vec<String> = [
            &self.signature_name,
            &self.signature_title,
            &self.signature_company,
        ]
        .into_iter()
        .flatten()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            line.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect();
        (!lines.is_empty()).then(|| format!("<p>{}</p>", lines.join("<br>")))
    }
}

/// What the test did (B §7: sent count).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationTestResult {
    #[serde(flatten)]
    pub result: TestResult,
    /// Businesses the emails were written for; made-up samples, named as such, when the automation finds none.
    pub businesses: Vec<String>,
}

/// The automation test (B §2.6): 1 to 5 emails of the template, personalised for businesses the automation would
/// pick (or made-up samples named as such when it has none), sent to the test address only, never to a prospect.
/// With an automation, its auto-reply and branding fields are saved as its campaign's settings.
#[utoipa::path(post, path = "/api/automations/test", tag = "automations", request_body = AutomationTest, responses(
    (status = 200, body = AutomationTestResult),
    (status = 404, description = "Automation or template not found", body = ErrorBody),
    (status = 422, description = "Please select an email template, Please enter a valid email address, or a value out of range", body = ErrorBody)))]
pub async fn test(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<AutomationTest>,
) -> ApiResult<Json<AutomationTestResult>> {
    request.validate().map_err(ApiError::validation)?;
    let db = &state.ctx.db;
    let automation = match request.automation_id {
        Some(id) => Some(owned(&state, id, user.id).await?),
        None => None,
    };
    let template_id = request
        .email_template_id
        .or(automation.as_ref().and_then(|row| row.email_template_id))
        .ok_or_else(|| ApiError::validation("Please select an email template"))?;
    let template = db
        .template_content(template_id, user.id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    if let Some(automation) = &automation {
        save_campaign_settings(&state, automation, &request).await?;
    }
    let quantity = i64::from(request.quantity.unwrap_or(1));
    let ids = match &automation {
        Some(row) => {
            db.automation_candidates(user.id, row.campaign_id, quantity)
                .await?
        }
        None => Vec::new(),
    };
    let found = db.recipients(&ids, user.id).await?;
    let mut recipients: Vec<Recipient> =
        ids.iter().filter_map(|id| found.get(id).cloned()).collect();
    for sample in recipients.len() as i64..quantity {
        recipients.push(Recipient {
            business_name: Some(format!(
                "Sample Business {} (made up for this test)",
                sample + 1
            )),
            city: automation.as_ref().map(|row| row.geographic_area.clone()),
            ..Recipient::default()
        });
    }
    let signature = request.signature().unwrap_or_default();
    let messages: Vec<TestMessage> = recipients
        .iter()
        .enumerate()
        .map(|(index, recipient)| {
            let seed = format!("automation-test-{index}");
            TestMessage {
                template_id: None,
                business_id: None,
                subject: render(&template.0, recipient, &seed).text,
                body: Some(format!(
                    "{}{signature}",
                    render_html(&template.1, recipient, &seed).text
                )),
            }
        })
        .collect();
    let to = normalize_email(&request.test_email);
    let sender = default_sender(&state, user.id).await?;
    let outcome = send_tests(&state, &user, sender, &to, messages).await?;
    Ok(Json(AutomationTestResult {
        result: outcome.answer(&to),
        businesses: recipients
            .into_iter()
            .filter_map(|recipient| recipient.business_name)
            .collect(),
    }))
}

/// The test form's auto-reply and branding fields, saved as the automation's campaign settings (the same the
/// builder's step 6 edits): off is manual; a confidence maps to the nearest certainty (90% high, 75% medium, else
/// low); the delay to the reply timing that contains it; approval required means every answer, else the first ten.
async fn save_campaign_settings(
    state: &AppState,
    automation: &AutomationRow,
    request: &AutomationTest,
) -> ApiResult<()> {
    let db = &state.ctx.db;
    let Some(mut campaign) = db
        .find_campaign(automation.campaign_id, automation.user_id)
        .await?
    else {
        return Ok(());
    };
    let settings = &mut campaign.ai_settings;
    let confidence = request.confidence_threshold.unwrap_or(0.85);
    // Kept as given (a whole percent); the certainty shown in step 6 is the nearest one below it.
    settings.min_confidence_percent = Some((confidence * 100.0).round() as i32);
    settings.certainty_threshold = match request.auto_reply_enabled.unwrap_or(true) {
        false => CertaintyThreshold::Manual,
        true if confidence >= 0.9 => CertaintyThreshold::High,
        true if confidence >= 0.75 => CertaintyThreshold::Medium,
        true => CertaintyThreshold::Low,
    };
    if let Some(minutes) = request.auto_reply_delay_minutes {
        settings.reply_timing = match minutes {
            0..=5 => ReplyTiming::Immediate,
            6..=120 => ReplyTiming::Quick,
            121..=480 => ReplyTiming::Business,
            _ => ReplyTiming::Delayed,
        };
    }
    if let Some(required) = request.require_human_approval {
        // Off holds nothing back (B §9: human approval off by default).
        settings.human_approval = if required {
            HumanApproval::Always
        } else {
            HumanApproval::Never
        };
    }
    settings.auto_reply_max_per_day = request
        .auto_reply_max_per_day
        .unwrap_or(settings.auto_reply_max_per_day);
    let text = |value: &Option<String>| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map(str::to_string)
    };
    if let Some(name) = text(&request.from_name) {
        campaign.email_from_name = Some(name);
    }
    if let Some(address) = text(&request.from_email) {
        campaign.email_from_address = Some(address);
    }
    if let Some(address) = text(&request.reply_to_email) {
        campaign.reply_to = Some(address);
    }
    db.update_campaign(&campaign, state.ctx.now_ms()).await?;
    Ok(())
}
