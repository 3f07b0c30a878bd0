//! The sender details every email carries: the postal address of the footer (CAN-SPAM asks for one).

use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::session::SignedIn;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileRequest {
    postal_address: Option<String>,
}

/// `GET /api/user/profile`: the sender details every email carries (the postal address of the footer).
pub async fn profile(SignedIn(user): SignedIn) -> Json<Value> {
    Json(json!({
        "email": user.email,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "postalAddress": user.postal_address,
    }))
}

/// `PUT /api/user/profile {postalAddress}`: the postal address in every email's footer (CAN-SPAM asks for one).
pub async fn save_profile(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<ProfileRequest>,
) -> ApiResult<Json<Value>> {
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
        .set_postal_address(user.id, &address, state.ctx.now_ms())
        .await?;
    Ok(Json(json!({ "success": true, "postalAddress": address })))
}
