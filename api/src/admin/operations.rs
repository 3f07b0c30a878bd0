//! The console's view across users: the suppression list (add, remove with a reason), queue jobs (by kind, status
//! and age; retry, retry every failed job of a kind, cancel), campaigns (progress, pause, resume), senders' health,
//! searches and the audit log.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use outreach_core::admin::audit::AuditEntry;
use outreach_core::admin::listing::{self, AdminCampaign, AdminSearch, AdminSender, Filter};
use outreach_core::admin::{self};
use outreach_core::platform::queue::{JobDetail, JobRow, parse_status};
use outreach_core::sending::suppression::Unsubscribe;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::listing::{ListParams, listed};
use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::{Done, ErrorBody};
use crate::session::Admin;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_unsubscribes, add_unsubscribe))
        .routes(routes!(remove_unsubscribe))
        .routes(routes!(list_jobs))
        .routes(routes!(show_job))
        .routes(routes!(retry_job))
        .routes(routes!(cancel_job))
        .routes(routes!(retry_failed_jobs))
        .routes(routes!(list_campaigns))
        .routes(routes!(show_campaign))
        .routes(routes!(pause_campaign))
        .routes(routes!(resume_campaign))
        .routes(routes!(list_senders))
        .routes(routes!(list_searches))
        .routes(routes!(list_audit))
}

/// A suppressed address as a react-admin record (its `id` is the address).
#[derive(Debug, Serialize, ToSchema)]
pub struct SuppressedAddress {
    pub id: String,
    #[serde(flatten)]
    pub unsubscribe: Unsubscribe,
}

impl From<Unsubscribe> for SuppressedAddress {
    fn from(unsubscribe: Unsubscribe) -> Self {
        Self {
            id: unsubscribe.email.clone(),
            unsubscribe,
        }
    }
}

/// The suppression list, newest first (it takes no other order); `filter.q` looks in the address.
#[utoipa::path(get, path = "/api/admin/unsubscribes", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<SuppressedAddress>, headers(("content-range" = String))),
    (status = 400, description = "range must be [first, last], or filter must be a JSON object", body = ErrorBody)))]
pub async fn list_unsubscribes(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::INVITES)?;
    let text = listing.text("q").to_lowercase();
    let (rows, total) = state
        .ctx
        .db
        .sending()
        .list_unsubscribes(&text, listing.page.limit, listing.page.offset)
        .await?;
    let records: Vec<SuppressedAddress> = rows.into_iter().map(Into::into).collect();
    Ok(listed("unsubscribes", listing.first, records, total))
}

/// An address to suppress, or one to take off the list, and why.
#[derive(Debug, Deserialize, ToSchema)]
pub struct SuppressionForm {
    /// Required to add; the address comes from the path to remove.
    email: Option<String>,
    /// Why (required to remove; kept in the audit log).
    reason: Option<String>,
}

/// Adds an address to the suppression list: nothing is sent to it any more, by any user.
#[utoipa::path(post, path = "/api/admin/unsubscribes", tag = "admin", request_body = SuppressionForm, responses(
    (status = 201, body = SuppressedAddress),
    (status = 422, description = "Please enter a valid email address, or it is already on the list", body = ErrorBody)))]
pub async fn add_unsubscribe(
    State(state): State<AppState>,
    Admin(admin): Admin,
    JsonBody(form): JsonBody<SuppressionForm>,
) -> ApiResult<Response> {
    let email = form.email.unwrap_or_default();
    let entry = admin::suppress(&state.ctx, &admin.email, &email, form.reason.as_deref()).await?;
    let added = state
        .ctx
        .db
        .sending()
        .find_unsubscribe(&entry.target_id)
        .await?;
    let added = added.ok_or_else(|| ApiError::internal("the suppressed address is missing"))?;
    Ok((StatusCode::CREATED, Json(SuppressedAddress::from(added))).into_response())
}

/// Takes an address off the suppression list, with the reason (kept in the audit log).
#[utoipa::path(delete, path = "/api/admin/unsubscribes/{email}", tag = "admin", params(("email" = String, Path)),
    request_body = SuppressionForm, responses(
    (status = 200, body = Done),
    (status = 404, description = "The address is not on the suppression list", body = ErrorBody),
    (status = 422, description = "Please give a reason for removing this address", body = ErrorBody)))]
pub async fn remove_unsubscribe(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(email): Path<String>,
    JsonBody(form): JsonBody<SuppressionForm>,
) -> ApiResult<Json<Done>> {
    let reason = form.reason.unwrap_or_default();
    let entry = admin::unsuppress(&state.ctx, &admin.email, &email, &reason).await?;
    Ok(Json(Done {
        success: true,
        message: format!("{} was removed from the suppression list", entry.target_id),
    }))
}

/// Queue jobs, the latest to run first: `filter.jobType` a kind, `filter.status` an apalis status (Pending, Queued,
/// Running, Done, Failed, Killed), with attempts and the last result.
#[utoipa::path(get, path = "/api/admin/jobs", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<JobRow>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_jobs(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::JOBS)?;
    let status = listing.text("status");
    let status = match status.as_str() {
        "" => String::new(),
        text => parse_status(text)
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_filter",
                    "Unknown job status",
                )
            })?
            .to_string(),
    };
    let filter = Filter {
        text: listing.text("jobType"),
        status,
    };
    let (jobs, total) = state
        .ctx
        .db
        .admin()
        .admin_jobs(&filter, &listing.page)
        .await?;
    Ok(listed("jobs", listing.first, jobs, total))
}

/// One job with its payload and last result.
#[utoipa::path(get, path = "/api/admin/jobs/{id}", tag = "admin", params(("id" = String, Path)), responses(
    (status = 200, body = JobDetail),
    (status = 404, description = "No such job", body = ErrorBody)))]
pub async fn show_job(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(id): Path<String>,
) -> ApiResult<Json<JobDetail>> {
    let job = state.ctx.queue.show(&id).await?;
    Ok(Json(job.ok_or_else(|| ApiError::not_found("No such job"))?))
}

/// Puts a failed (or cancelled) job back in the queue with a fresh attempt count.
#[utoipa::path(post, path = "/api/admin/jobs/{id}/retry", tag = "admin", params(("id" = String, Path)), responses(
    (status = 200, body = AuditEntry),
    (status = 422, description = "Only failed or cancelled jobs are retried", body = ErrorBody)))]
pub async fn retry_job(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<String>,
) -> ApiResult<Json<AuditEntry>> {
    Ok(Json(admin::retry_job(&state.ctx, &admin.email, &id).await?))
}

/// Cancels a job that has not started.
#[utoipa::path(post, path = "/api/admin/jobs/{id}/cancel", tag = "admin", params(("id" = String, Path)), responses(
    (status = 200, body = AuditEntry),
    (status = 422, description = "Only a queued job can be cancelled", body = ErrorBody)))]
pub async fn cancel_job(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<String>,
) -> ApiResult<Json<AuditEntry>> {
    Ok(Json(
        admin::cancel_job(&state.ctx, &admin.email, &id).await?,
    ))
}

/// A job kind.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobKindForm {
    job_type: String,
}

/// Puts every failed (or cancelled) job of a kind back in the queue.
#[utoipa::path(post, path = "/api/admin/jobs/retry-failed", tag = "admin", request_body = JobKindForm, responses(
    (status = 200, body = Done),
    (status = 422, description = "Unknown job kind", body = ErrorBody)))]
pub async fn retry_failed_jobs(
    State(state): State<AppState>,
    Admin(admin): Admin,
    JsonBody(form): JsonBody<JobKindForm>,
) -> ApiResult<Json<Done>> {
    let entry = admin::retry_failed(&state.ctx, &admin.email, &form.job_type).await?;
    let message = match entry {
        Some(_) => format!("Every failed {} job is back in the queue", form.job_type),
        None => format!("No {} job had failed", form.job_type),
    };
    Ok(Json(Done {
        success: true,
        message,
    }))
}

/// Campaigns across users, newest first: `filter.q` looks in the name and the owner's email, `filter.status` is a
/// campaign status; with progress and the reason of a pause.
#[utoipa::path(get, path = "/api/admin/campaigns", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<AdminCampaign>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_campaigns(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::CAMPAIGNS)?;
    let filter = Filter {
        text: listing.text("q"),
        status: listing.text("status"),
    };
    let (campaigns, total) = state
        .ctx
        .db
        .admin()
        .admin_campaigns(&filter, None, &listing.page)
        .await?;
    Ok(listed("campaigns", listing.first, campaigns, total))
}

/// One campaign of any user.
#[utoipa::path(get, path = "/api/admin/campaigns/{id}", tag = "admin", params(("id" = i64, Path)), responses(
    (status = 200, body = AdminCampaign),
    (status = 404, description = "No campaign with that id", body = ErrorBody)))]
pub async fn show_campaign(
    State(state): State<AppState>,
    Admin(_): Admin,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCampaign>> {
    Ok(Json(admin::find_campaign(&state.ctx, id).await?))
}

/// Pauses a sending campaign of any user; its owner reads that the operator paused it.
#[utoipa::path(post, path = "/api/admin/campaigns/{id}/pause", tag = "admin", params(("id" = i64, Path)), responses(
    (status = 200, body = AdminCampaign),
    (status = 404, description = "No campaign with that id", body = ErrorBody),
    (status = 422, description = "Only a campaign that is sending can be paused", body = ErrorBody)))]
pub async fn pause_campaign(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCampaign>> {
    admin::pause_campaign(&state.ctx, &admin.email, id).await?;
    Ok(Json(admin::find_campaign(&state.ctx, id).await?))
}

/// Resumes a paused campaign of any user.
#[utoipa::path(post, path = "/api/admin/campaigns/{id}/resume", tag = "admin", params(("id" = i64, Path)), responses(
    (status = 200, body = AdminCampaign),
    (status = 404, description = "No campaign with that id", body = ErrorBody),
    (status = 422, description = "Only a paused campaign can be resumed", body = ErrorBody)))]
pub async fn resume_campaign(
    State(state): State<AppState>,
    Admin(admin): Admin,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCampaign>> {
    admin::resume_campaign(&state.ctx, &admin.email, id).await?;
    Ok(Json(admin::find_campaign(&state.ctx, id).await?))
}

/// Senders across users with their health: `filter.q` looks in the address and the owner's email,
/// `filter.provider` is a provider.
#[utoipa::path(get, path = "/api/admin/senders", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<AdminSender>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_senders(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::SENDERS)?;
    let filter = Filter {
        text: listing.text("q"),
        status: listing.text("provider"),
    };
    let (senders, total) = state
        .ctx
        .db
        .admin()
        .admin_senders(&filter, &listing.page, state.ctx.now_ms())
        .await?;
    Ok(listed("senders", listing.first, senders, total))
}

/// Searches across users, newest first: `filter.q` looks in the term and the owner's email, `filter.status` is a
/// search status.
#[utoipa::path(get, path = "/api/admin/searches", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<AdminSearch>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_searches(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::SEARCHES)?;
    let filter = Filter {
        text: listing.text("q"),
        status: listing.text("status"),
    };
    let (searches, total) = state
        .ctx
        .db
        .admin()
        .admin_searches(&filter, &listing.page)
        .await?;
    Ok(listed("searches", listing.first, searches, total))
}

/// The audit log, newest first: `filter.actor`, `filter.action`, `filter.targetType`. Read-only.
#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(ListParams), responses(
    (status = 200, body = Vec<AuditEntry>, headers(("content-range" = String))),
    (status = 400, description = "A sort, range or filter the list does not take", body = ErrorBody)))]
pub async fn list_audit(
    State(state): State<AppState>,
    Admin(_): Admin,
    Query(params): Query<ListParams>,
) -> ApiResult<Response> {
    let listing = params.listing(&listing::AUDIT)?;
    let (entries, total) = state
        .ctx
        .db
        .admin()
        .admin_audit(
            &listing.text("actor"),
            &listing.text("action"),
            &listing.text("targetType"),
            &listing.page,
        )
        .await?;
    Ok(listed("audit", listing.first, entries, total))
}
