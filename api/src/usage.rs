//! `GET /api/email-usage`: emails sent in the last 30 days against the plan's monthly limit (A §7).

use axum::Json;
use axum::extract::State;
use outreach_core::accounts::quota_window_start;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::error::ApiResult;
use crate::session::SignedIn;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(email_usage))
}

/// Emails sent in the last 30 days and the plan's monthly limit (A §3 Usage).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailUsage {
    pub count: i64,
    pub limit: i64,
    pub plan_type: String,
}

/// The user's sends in the last 30 days against their monthly limit.
#[utoipa::path(get, path = "/api/email-usage", tag = "usage", responses((status = 200, body = EmailUsage)))]
pub async fn email_usage(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<EmailUsage>> {
    let settings = &state.ctx.settings;
    let count = state
        .ctx
        .db
        .accounts()
        .count_sent_emails_since(user.id, quota_window_start(state.ctx.now_ms()))
        .await?;
    Ok(Json(EmailUsage {
        count,
        limit: user.email_limit(&settings.auth, &settings.accounts),
        plan_type: user.plan_type(&settings.auth).to_string(),
    }))
}
