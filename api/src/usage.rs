//! `GET /api/email-usage`: emails sent in the last 30 days against the plan's monthly limit (A §7).

use axum::Json;
use axum::extract::State;
use outreach_core::accounts::quota_window_start;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiResult;
use crate::session::SignedIn;

use axum::Router;
use axum::routing::get;

/// The endpoints of this module, behind the account gate.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/email-usage", get(email_usage))
}

pub async fn email_usage(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<Value>> {
    let settings = &state.ctx.settings;
    let count = state
        .ctx
        .db
        .count_sent_emails_since(user.id, quota_window_start(state.ctx.now_ms()))
        .await?;
    Ok(Json(json!({
        "count": count,
        "limit": user.email_limit(&settings.auth, &settings.accounts),
        "planType": user.plan_type(&settings.auth),
    })))
}
