//! File uploads (multipart field `file`): one file with its name, or an error in the API's shape. A file over the
//! body limit gets A §5's message naming it, with 413.

use axum::body::Bytes;
use axum::extract::Multipart;
use axum::http::StatusCode;
use outreach_core::campaigns::education::EducationError;

use crate::error::{ApiError, ApiResult};

/// A file upload as the OpenAPI description shows it: one multipart field named `file`.
#[derive(utoipa::ToSchema)]
pub struct FileUpload {
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
}

fn bad_upload(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_upload", message)
}

/// The first field named `file`: its name (without any folder a browser sent) and its bytes. `default_name`
/// stands in for a file sent without a name; `None` refuses such a file.
pub async fn single_file(
    multipart: &mut Multipart,
    default_name: Option<&str>,
) -> ApiResult<(String, Bytes)> {
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|error| bad_upload(error.body_text()))?
    {
        if field.name() != Some("file") {
            continue;
        }
        let name = field
            .file_name()
            .map(|name| name.rsplit(['/', '\\']).next().unwrap_or(name).to_string())
            .filter(|name| !name.is_empty())
            .or_else(|| default_name.map(str::to_string))
            .ok_or_else(|| bad_upload("The file has no name"))?;
        let bytes = field.bytes().await.map_err(|error| {
            if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    EducationError::TooLarge(name.clone()).to_string(),
                )
            } else {
                bad_upload(error.body_text())
            }
        })?;
        return Ok((name, bytes));
    }
    Err(bad_upload("Send the file in a multipart field named file"))
}
