//! Health, readiness and request metrics (`outreach_http_requests_total`, `outreach_http_request_duration_seconds`,
//! labelled by method, route template and status class: bounded sets only).

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;

/// The endpoints of this module, public (the metrics have their own listener).
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
}

/// The process is up.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: String,
}

/// Whether the database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `unavailable`.
    pub status: String,
    /// `sqlite` or `postgres`.
    pub database: String,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok".into(),
    })
}

/// The database answers and migrations are applied.
#[utoipa::path(get, path = "/readyz", tag = "operations", responses(
    (status = 200, body = Readiness),
    (status = 503, description = "The database does not answer", body = Readiness)))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    let ready = state.ctx.db.is_ready().await;
    let answer = Json(Readiness {
        status: if ready { "ready" } else { "unavailable" }.into(),
        database: state.ctx.db.backend().to_string(),
    });
    if ready {
        answer.into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, answer).into_response()
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
