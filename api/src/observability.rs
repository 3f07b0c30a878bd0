//! Health, readiness and request metrics (`outreach_http_requests_total`, `outreach_http_request_duration_seconds`,
//! labelled by method, route template and status class: bounded sets only).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;

use crate::AppState;

/// The endpoints of this module, outside the account gate (each checks what it needs itself).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// `GET /healthz`: the process is up.
pub async fn healthz() -> Json<serde_json::Value> {
    Json(json!({ "status": "ok" }))
}

/// `GET /readyz`: the database answers and migrations are applied.
pub async fn readyz(State(state): State<AppState>) -> Response {
    if state.ctx.db.is_ready().await {
        Json(json!({ "status": "ready", "database": state.ctx.db.backend() })).into_response()
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "status": "unavailable", "database": state.ctx.db.backend() })),
        )
            .into_response()
    }
}

pub async fn record_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().as_str().to_string();
    // The route template, never the raw path (unbounded label values); unmatched paths are the web app.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("web", |path| path.as_str())
        .to_string();
    let response = next.run(request).await;
    let status = format!("{}xx", response.status().as_u16() / 100);
    let labels = [("method", method), ("route", route), ("status", status)];
    metrics::counter!("outreach_http_requests_total", &labels).increment(1);
    metrics::histogram!("outreach_http_request_duration_seconds", &labels)
        .record(started.elapsed().as_secs_f64());
    response
}

/// The Prometheus scrape endpoint, served on its own listener (`metrics.listen`).
pub fn metrics_router(render: impl Fn() -> String + Clone + Send + Sync + 'static) -> Router {
    Router::new().route("/metrics", get(move || std::future::ready(render())))
}
