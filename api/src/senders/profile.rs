//! The sender details every email carries: the postal address of the footer (CAN-SPAM asks for one).

use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::session::SignedIn;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileRequest {
    postal_address: Option<String>,
}

/// The sender details every email carries.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The postal address of every email's footer.
    pub postal_address: Option<String>,
}

/// The sender details every email carries (the postal address of the footer).
#[utoipa::path(get, path = "/api/user/profile", tag = "senders", responses((status = 200, body = Profile)))]
pub async fn profile(SignedIn(user): SignedIn) -> Json<Profile> {
    Json(Profile {
        email: user.email,
        first_name: user.first_name,
        last_name: user.last_name,
        postal_address: user.postal_address,
    })
}

/// A saved postal address.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileSaved {
    pub success: bool,
    pub postal_address: String,
}

/// The postal address in every email's footer (CAN-SPAM asks for one).
#[utoipa::path(put, path = "/api/user/profile", tag = "senders", request_body = ProfileRequest, responses(
    (status = 200, body = ProfileSaved),
    (status = 422, description = "Postal address must be at most 500 characters", body = ErrorBody)))]
pub async fn save_profile(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<ProfileRequest>,
) -> ApiResult<Json<ProfileSaved>> {
    let address = request
        .postal_address
        .unwrap_or_default()
        .trim()
        .to_string();
    if address.chars().count() > 500 {
        return Err(ApiError::validation(
            "Postal address must be at most 500 characters",
        ));
    }
    state
        .ctx
        .db
        .accounts()
        .set_postal_address(user.id, &address, state.ctx.now_ms())
        .await?;
    Ok(Json(ProfileSaved {
        success: true,
        postal_address: address,
    }))
}
