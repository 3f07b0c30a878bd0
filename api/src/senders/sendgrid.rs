//! Level 2 basic addresses (A §4 Email tiers): `username@<sending domain>`, sent through the operator's SendGrid
//! account; username checks and suggestions, and a test email.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use outreach_core::sending::launch::TestMessage;
use outreach_core::sending::senders::{NewEmailConfig, Provider};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{ApiError, ApiResult, JsonBody};
use crate::openapi::ErrorBody;
use crate::senders::request::{DEFAULT_DAILY_CAP, basic_address, reply_to_address, text};
use crate::session::SignedIn;
use crate::test_sends::{TestResult, send_tests};

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct BasicAddressRequest {
    username: Option<String>,
    email_prefix: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
    reply_to: Option<String>,
}

/// Whether a username is free, and why not.
#[derive(Debug, Serialize, ToSchema)]
pub struct UsernameCheck {
    pub available: bool,
    pub reason: Option<String>,
}

impl UsernameCheck {
    fn taken(reason: &str) -> Json<Self> {
        Json(Self {
            available: false,
            reason: Some(reason.to_string()),
        })
    }
}

/// Whether a basic address's username (`username` or `emailPrefix`) is free (A §4 Username availability).
#[utoipa::path(post, path = "/api/user/check-username", tag = "senders", request_body = BasicAddressRequest,
    responses((status = 200, body = UsernameCheck)))]
pub async fn check_username(
    State(state): State<AppState>,
    SignedIn(_user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<UsernameCheck>> {
    let username = text(&request.username)
        .or(text(&request.email_prefix))
        .unwrap_or_default();
    if !outreach_core::sending::senders::valid_username(&username) {
        return Ok(UsernameCheck::taken(
            outreach_core::sending::senders::USERNAME_RULE,
        ));
    }
    let taken = state
        .ctx
        .db
        .sending()
        .email_address_taken(&basic_address(&state, &username))
        .await?;
    Ok(if taken {
        UsernameCheck::taken("This username is already taken")
    } else {
        Json(UsernameCheck {
            available: true,
            reason: None,
        })
    })
}

/// A free username and the address it makes.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuggestedUsername {
    pub username: String,
    pub email_address: String,
}

/// A free username from the user's name (else the login address).
#[utoipa::path(get, path = "/api/user/suggest-username", tag = "senders", responses(
    (status = 200, body = SuggestedUsername),
    (status = 422, description = "No free username was found; choose one", body = ErrorBody)))]
pub async fn suggest_username(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> ApiResult<Json<SuggestedUsername>> {
    let name = [user.first_name.as_deref(), user.last_name.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let base = if name.trim().is_empty() {
        outreach_core::sending::senders::username_from(
            user.email.split('@').next().unwrap_or("sender"),
        )
    } else {
        outreach_core::sending::senders::username_from(&name)
    };
    for attempt in 1..100 {
        let candidate = if attempt == 1 {
            base.clone()
        } else {
            format!("{}{attempt}", &base[..base.len().min(27)])
        };
        if !state
            .ctx
            .db
            .sending()
            .email_address_taken(&basic_address(&state, &candidate))
            .await?
        {
            return Ok(Json(SuggestedUsername {
                email_address: basic_address(&state, &candidate),
                username: candidate,
            }));
        }
    }
    Err(ApiError::validation(
        "No free username was found; choose one",
    ))
}

/// A created basic address.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BasicAddressCreated {
    pub success: bool,
    pub id: i64,
    pub email_address: String,
    pub message: String,
}

/// A Level 2 sender, `prefix@<sending domain>`, sent through the operator's SendGrid key (`firstName`, `lastName`,
/// `emailPrefix`, `replyTo`).
#[utoipa::path(post, path = "/api/sendgrid/create-basic-address", tag = "senders", request_body = BasicAddressRequest,
    responses((status = 200, body = BasicAddressCreated),
        (status = 422, description = "A name or the username is missing, invalid or taken, or the instance has no SendGrid key", body = ErrorBody)))]
pub async fn create_basic_address(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<BasicAddressCreated>> {
    let (Some(first), Some(last), Some(prefix)) = (
        text(&request.first_name),
        text(&request.last_name),
        text(&request.email_prefix),
    ) else {
        return Err(ApiError::validation(
            "First name, last name and email username are required",
        ));
    };
    if !outreach_core::sending::senders::valid_username(&prefix) {
        return Err(ApiError::validation(
            outreach_core::sending::senders::USERNAME_RULE,
        ));
    }
    if state.ctx.settings.sendgrid.api_key.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "provider_unavailable",
            "Basic addresses are not available: the administrator has not connected this instance's SendGrid account",
        ));
    }
    let address = basic_address(&state, &prefix);
    if state.ctx.db.sending().email_address_taken(&address).await? {
        return Err(ApiError::validation("This username is already taken"));
    }
    let reply_to = reply_to_address(&request.reply_to)?.unwrap_or_else(|| user.email.clone());
    let config = NewEmailConfig {
        provider: Provider::SendGridBasic,
        send_from: address.clone(),
        send_from_name: format!("{first} {last}"),
        reply_to: Some(reply_to),
        daily_cap: DEFAULT_DAILY_CAP,
        is_verified: true,
        ..NewEmailConfig::default()
    };
    let id = state
        .ctx
        .db
        .sending()
        .insert_email_config(user.id, &config, state.ctx.now_ms())
        .await?;
    Ok(Json(BasicAddressCreated {
        success: true,
        id,
        message: format!("{address} is ready to send"),
        email_address: address,
    }))
}

/// A test email from the user's basic address (`emailPrefix`) to their login address, through the operator's
/// SendGrid account.
#[utoipa::path(post, path = "/api/sendgrid/send-test", tag = "senders", request_body = BasicAddressRequest,
    responses((status = 200, body = TestResult),
        (status = 422, description = "Create the address first, then send a test email from it", body = ErrorBody)))]
pub async fn send_basic_test(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    JsonBody(request): JsonBody<BasicAddressRequest>,
) -> ApiResult<Json<TestResult>> {
    let prefix = text(&request.email_prefix).unwrap_or_default();
    let address = basic_address(&state, &prefix);
    let config = state
        .ctx
        .db
        .sending()
        .list_email_configs(user.id)
        .await?
        .into_iter()
        .find(|config| config.provider == Provider::SendGridBasic && config.send_from == address)
        .ok_or_else(|| {
            ApiError::validation("Create the address first, then send a test email from it")
        })?;
    let test = TestMessage {
        template_id: None,
        business_id: None,
        subject: format!("Test email from {address}"),
        body: Some(format!(
            "<p>This test email was sent from your address {address}. If it reached you, the address works and \
             your campaigns can use it.</p>"
        )),
    };
    let outcome = send_tests(&state, &user, Some(config), &user.email, vec![test], None).await?;
    Ok(Json(TestResult {
        from_email: Some(address),
        ..outcome.answer(&user.email)
    }))
}
