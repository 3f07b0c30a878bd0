//! Automations (B §2.5, §2.6, §3, §7; issue 21): the user's automations, Pause/Start and edits, Run Now with its
//! result, each automation's analytics, the run records of Automation Reports, and the test that sends the
//! automation's email only to a test address.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::automations::figures::{self, RunRecord, RunResult};
use outreach_core::automations::store::AutomationRow;
use outreach_core::automations::test::{AutomationTest, TestError, test_address, test_emails};
use outreach_core::automations::{
    AutomationAnalytics, AutomationForm, AutomationView, analytics as automation_analytics, create,
    run_now,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::senders::configs::default_sender;
use crate::senders::request::owned_pool;
use crate::session::SignedIn;
use crate::test_sends::{TestResult, send_tests};
use outreach_core::sending::health::pool_changed;

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
/// How long Run Now waits for its run to search and start its emails before answering with the run to poll.
const RUN_WAIT: std::time::Duration = std::time::Duration::from_secs(30);
/// How long Run Now then waits for the emails it started to go: those a sender's pace or the window holds for later
/// are answered as waiting, and the card follows them.
const SEND_WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// Run records listed at most.
const RUNS_LISTED: i64 = 200;

async fn owned(state: &AppState, id: i64, user_id: i64) -> ApiResult<AutomationRow> {
    state
        .ctx
        .db
        .automations()
        .find_automation(id, Some(user_id), state.ctx.now_ms())
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn check_template(state: &AppState, template_id: i64, user_id: i64) -> ApiResult<()> {
    state
        .ctx
        .db
        .campaigns()
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
    let rows = state
        .ctx
        .db
        .automations()
        .list_automations(user.id, now)
        .await?;
    let pools = state.ctx.db.sending().campaign_pools(user.id).await?;
    Ok(Json(
        rows.iter()
            .map(|row| AutomationView {
                email_config_ids: pools.get(&row.campaign_id).cloned().unwrap_or_default(),
                ..row.view(now)
            })
            .collect(),
    ))
}

/// An automation as the API answers it, with its campaign's pool.
async fn view_of(state: &AppState, row: &AutomationRow) -> ApiResult<AutomationView> {
    let pool = state
        .ctx
        .db
        .sending()
        .campaign_pool(row.campaign_id)
        .await?;
    Ok(AutomationView {
        email_config_ids: pool.iter().map(|config| config.id).collect(),
        ..row.view(state.ctx.now_ms())
    })
}

/// Sets the pool a form names on the automation's campaign (checked first, so a refused pool writes nothing).
async fn set_pool(state: &AppState, campaign_id: i64, pool: Option<Vec<i64>>) -> ApiResult<()> {
    if let Some(pool) = pool {
        state
            .ctx
            .db
            .sending()
            .set_campaign_pool(campaign_id, &pool)
            .await?;
        pool_changed(&state.ctx, campaign_id).await?;
    }
    Ok(())
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
    let pool = match &form.email_config_ids {
        Some(ids) => Some(owned_pool(&state, user.id, ids).await?),
        None => None,
    };
    let id = create(&state.ctx, user.id, &settings).await?;
    let row = owned(&state, id, user.id).await?;
    set_pool(&state, row.campaign_id, pool).await?;
    Ok((StatusCode::CREATED, Json(view_of(&state, &row).await?)).into_response())
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
    let pool = match &form.email_config_ids {
        Some(ids) => Some(owned_pool(&state, user.id, ids).await?),
        None => None,
    };
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
        .automations()
        .update_automation(id, user.id, &settings, ended.as_deref(), now)
        .await?;
    set_pool(&state, row.campaign_id, pool).await?;
    let row = owned(&state, id, user.id).await?;
    Ok(Json(view_of(&state, &row).await?))
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
    if !state
        .ctx
        .db
        .automations()
        .delete_automation(id, user.id)
        .await?
    {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(Json(Done {
        success: true,
        message: "Automation deleted".into(),
    }))
}

/// Run Now (B §7): the same run as the daily one, at once; answers its result once it searched and its emails went,
/// or 202 with the run to poll (`GET /api/automation-runs/{id}`) while it still searches or some of its emails wait
/// (for a sender's pace, the window or a cap).
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
            .automations()
            .find_run(run_id, Some(user.id))
            .await?
            .ok_or_else(|| ApiError::not_found("Run not found"))?;
        Ok::<_, ApiError>(figures::run_result(db, &run).await?)
    };
    let started = crate::wait_for(RUN_WAIT, &load, RunResult::started).await?;
    let result = if started.started() {
        crate::wait_for(SEND_WAIT, &load, RunResult::settled).await?
    } else {
        started
    };
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
        .automations()
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

/// What the test did (B §7: sent count).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AutomationTestResult {
    #[serde(flatten)]
    pub result: TestResult,
    /// The made-up businesses the emails were written for, named as such.
    pub businesses: Vec<String>,
    /// What the form's automatic-answer settings would do with a reply, in words (nothing is saved).
    pub answers: String,
}

/// The automation test (B §2.6, §9): 1 to 5 emails of the template, personalised for made-up businesses of the
/// automation's kind and area, sent to the test address only (with the form's from name and reply-to), never to a
/// prospect. It saves nothing to the automation; its answer says what the automatic-answer settings would do.
#[utoipa::path(post, path = "/api/automations/test", tag = "automations", request_body = AutomationTest, responses(
    (status = 200, body = AutomationTestResult),
    (status = 404, description = "Automation or template not found", body = ErrorBody),
    (status = 429, description = "Too many test emails: at most 10 a minute and 50 in 24 hours", body = ErrorBody),
    (status = 422, description = "Please select an email template, Please enter a valid email address, or a value out of range", body = ErrorBody)))]
pub async fn test(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<AutomationTest>,
) -> ApiResult<Json<AutomationTestResult>> {
    let automation = match request.automation_id {
        Some(id) => Some(owned(&state, id, user.id).await?),
        None => None,
    };
    let emails = test_emails(&state.ctx, user.id, automation.as_ref(), &request)
        .await
        .map_err(|error| match error {
            TestError::Invalid(invalid) => ApiError::validation(invalid),
            TestError::TemplateNotFound => ApiError::not_found(error.to_string()),
            TestError::Store(error) => error.into(),
        })?;
    let to = test_address(&request);
    let sender = default_sender(&state, user.id).await?;
    let outcome = send_tests(
        &state,
        &user,
        sender,
        &to,
        emails.messages,
        Some(&request.branding()),
    )
    .await?;
    Ok(Json(AutomationTestResult {
        result: outcome.answer(&to),
        businesses: emails.businesses,
        answers: emails.answers,
    }))
}
