//! API errors: `{"error": "snake_case_code", "message": "human text"}` with the right status; 5xx never leak internals.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// Every error answer of the API: a snake_case code for programs and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for programs: `unauthorized`, `forbidden`, `not_found`, `validation_failed`, ...
    pub error: String,
    /// What went wrong, for people (the product's wording).
    pub message: String,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
        }
    }
    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Authentication required",
        )
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }
    pub fn validation(message: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "validation_failed",
            message,
        )
    }
    /// Logs the cause and answers a generic 500.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "request failed");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "Something went wrong. Please try again.",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(ErrorBody {
                error: self.code.to_string(),
                message: self.message,
            }),
        )
            .into_response()
    }
}

impl From<outreach_core::platform::db::StoreError> for ApiError {
    fn from(error: outreach_core::platform::db::StoreError) -> Self {
        Self::internal(error)
    }
}

impl From<outreach_core::platform::queue::QueueError> for ApiError {
    fn from(error: outreach_core::platform::queue::QueueError) -> Self {
        Self::internal(error)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON request body whose rejections (bad JSON, wrong content type, a field over its limit) answer in the API's
/// error shape.
pub struct JsonBody<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for JsonBody<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(
        request: axum::extract::Request,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        let Json(raw) = <Json<serde_json::Value> as axum::extract::FromRequest<S>>::from_request(
            request, state,
        )
        .await
        .map_err(|rejection| {
            ApiError::new(rejection.status(), "invalid_body", rejection.body_text())
        })?;
        // Every text field and list within its documented limit, before any handler reads it.
        outreach_core::platform::limits::check(&raw).map_err(ApiError::validation)?;
        serde_json::from_value(raw).map(JsonBody).map_err(|error| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_body",
                format!("Failed to deserialize the JSON body into the target type: {error}"),
            )
        })
    }
}
