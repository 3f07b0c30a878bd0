//! The HTTP mail senders: the Gmail API (`users.messages.send` with the raw RFC 5322 message, base64url, under an
//! access token refreshed from the stored refresh token; with the read permission, new INBOX messages through
//! `users.history.list` and `users.messages.get` for replies) and SendGrid v3 (`mail/send` JSON with the API key). Their
//! answers map onto [`SendError`]: a refusal is final for the message, a rate limit or outage is retried, and a
//! revoked Gmail grant or a rejected SendGrid key says so, so the sender can be turned off with the reason. Each
//! Gmail mailbox is paced with `governor`.

use std::sync::LazyLock;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::platform::config::Secret;
use crate::sending::SendError;
use crate::sending::compose::Composed;
use crate::sending::mime;

pub const GMAIL_API_URL: &str = "https://gmail.googleapis.com";
pub const SENDGRID_API_URL: &str = "https://api.sendgrid.com";

/// Why a sender stopped working for good (the configuration is turned off with this text).
pub const GMAIL_REVOKED: &str =
    "Gmail access was revoked or expired: connect this Gmail address again";
pub const GMAIL_READ_REFUSED: &str =
    "Gmail refused to let Outreach read this mailbox: allow reading replies again";
pub const SENDGRID_KEY_REFUSED: &str =
    "SendGrid refused the API key: check it has Mail Send access";

/// Gmail's per-mailbox pace: at most 2.5 sends a second (one every 400 ms), below the API's per-user quota, so a
/// large campaign is paced rather than refused. Shared by every job of this process.
static GMAIL_PACE: LazyLock<DefaultKeyedRateLimiter<String>> = LazyLock::new(|| {
    RateLimiter::keyed(Quota::with_period(Duration::from_millis(400)).expect("a non-zero period"))
});

/// Waits for the mailbox's turn to send.
async fn gmail_turn(mailbox: &str) {
    GMAIL_PACE.until_key_ready(&mailbox.to_lowercase()).await;
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client with a timeout builds")
}

/// What failed when talking to a mail API, with the provider's own words when it gave any.
fn status_error(provider: &str, status: reqwest::StatusCode, body: &str) -> SendError {
    let detail: String = body.chars().take(300).collect();
    match status.as_u16() {
        429 => SendError::Unreachable(format!("{provider} rate limit reached; retrying later")),
        500..=599 => SendError::Unreachable(format!("{provider} is unavailable ({status})")),
        _ => SendError::Refused(format!(
            "{provider} refused the message ({status}): {detail}"
        )),
    }
}

/// A Gmail sender: OAuth client, the mailbox's refresh token, and where the APIs are.
#[derive(Debug, Clone)]
pub struct Gmail {
    pub token_url: String,
    pub api_url: String,
    pub client_id: String,
    pub client_secret: Secret,
    pub refresh_token: Secret,
}

#[derive(Debug, Deserialize)]
struct TokenAnswer {
    access_token: String,
}

impl Gmail {
    /// The mailbox of `refresh_token`, through the instance's Google client.
    pub fn of(google: &crate::platform::config::GoogleSettings, refresh_token: Secret) -> Self {
        Gmail {
            token_url: google.token_url.clone(),
            api_url: google.gmail_api_url.clone(),
            client_id: google.client_id.clone(),
            client_secret: google.client_secret.clone(),
            refresh_token,
        }
    }

    /// A fresh access token. A refused refresh token (`invalid_grant`) means the user revoked access.
    pub async fn access_token(&self) -> Result<Secret, SendError> {
        let response = client()
            .post(&self.token_url)
            .form(&[
                ("grant_type", "refresh_token"),
                ("refresh_token", self.refresh_token.expose()),
                ("client_id", &self.client_id),
                ("client_secret", self.client_secret.expose()),
            ])
            .send()
            .await
            .map_err(|error| SendError::Unreachable(format!("Google token endpoint: {error}")))?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        if status.is_success() {
            let answer: TokenAnswer = serde_json::from_str(&body).map_err(|_| {
                SendError::Unreachable("Google's token answer could not be read".into())
            })?;
            return Ok(Secret::new(answer.access_token));
        }
        if body.contains("invalid_grant") || status.as_u16() == 401 {
            return Err(SendError::Revoked(GMAIL_REVOKED.into()));
        }
        Err(status_error("Google", status, &body))
    }

    /// One Gmail API call under the mailbox's access token: on a 401 the token is refreshed once and the call made
    /// again; a second 401 means the grant is gone. Returns the status and body of the answer.
    async fn call(
        &self,
        token: &mut Option<Secret>,
        request: impl Fn(&reqwest::Client, &str) -> reqwest::RequestBuilder,
    ) -> Result<(reqwest::StatusCode, String), SendError> {
        let base = self.api_url.trim_end_matches('/');
        for attempt in 0..2 {
            let access = match token.clone() {
                Some(access) if attempt == 0 => access,
                _ => {
                    let fresh = self.access_token().await?;
                    *token = Some(fresh.clone());
                    fresh
                }
            };
            let response = request(&client(), base)
                .bearer_auth(access.expose())
                .send()
                .await
                .map_err(|error| SendError::Unreachable(format!("Gmail API: {error}")))?;
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            if status.as_u16() == 401 && attempt == 0 {
                continue;
            }
            if status.as_u16() == 401 {
                break;
            }
            return Ok((status, body));
        }
        Err(SendError::Revoked(GMAIL_REVOKED.into()))
    }

    /// Sends through `users.messages.send`. Returns Gmail's message id.
    pub async fn send(
        &self,
        token: &mut Option<Secret>,
        composed: &Composed,
    ) -> Result<String, SendError> {
        let raw = URL_SAFE_NO_PAD.encode(mime::render(composed, chrono::Utc::now())?.text);
        gmail_turn(&composed.from_email).await;
        let (status, body) = self
            .call(token, |client, base| {
                client
                    .post(format!("{base}/gmail/v1/users/me/messages/send"))
                    .json(&json!({ "raw": raw }))
            })
            .await?;
        if status.is_success() {
            let answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            return Ok(answer["id"].as_str().unwrap_or_default().to_string());
        }
        // Gmail reports its daily sending limit as 403 or 429 with a rate-limit reason: try again later.
        if status.as_u16() == 403
            && (body.contains("RateLimitExceeded") || body.contains("dailyLimitExceeded"))
        {
            return Err(SendError::Unreachable(
                "Gmail's sending limit is reached; retrying later".into(),
            ));
        }
        Err(status_error("Gmail", status, &body))
    }

    /// A read call's JSON answer (None for 404: what was asked for is gone).
    async fn read_json(
        &self,
        token: &mut Option<Secret>,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Option<Value>, SendError> {
        let (status, body) = self
            .call(token, |client, base| {
                client
                    .get(format!("{base}/gmail/v1/users/me/{path}"))
                    .query(query)
            })
            .await?;
        if status.as_u16() == 404 {
            return Ok(None);
        }
        if status.as_u16() == 403 {
            return Err(SendError::Refused(GMAIL_READ_REFUSED.into()));
        }
        if !status.is_success() {
            return Err(status_error("Gmail", status, &body));
        }
        serde_json::from_str(&body)
            .map(Some)
            .map_err(|_| SendError::Unreachable("Gmail's answer could not be read".into()))
    }

    /// The mailbox's current history id (`users.getProfile`): reading replies starts after it.
    pub async fn history_id(&self, token: &mut Option<Secret>) -> Result<String, SendError> {
        let profile = self
            .read_json(token, "profile", &[])
            .await?
            .unwrap_or_default();
        history_text(&profile["historyId"])
            .ok_or_else(|| SendError::Unreachable("Gmail sent no history id".into()))
    }

    /// The ids of INBOX messages added after `history_id` (`users.history.list`, every page) and the history id
    /// to continue from; None when Gmail no longer keeps that much history (then [`Gmail::inbox_since`]).
    pub async fn added_since(
        &self,
        token: &mut Option<Secret>,
        history_id: &str,
    ) -> Result<Option<(Vec<String>, String)>, SendError> {
        let mut ids = Vec::new();
        let mut latest = history_id.to_string();
        let mut page: Option<String> = None;
        loop {
            let mut query = vec![
                ("startHistoryId", history_id.to_string()),
                ("historyTypes", "messageAdded".to_string()),
                ("labelId", "INBOX".to_string()),
            ];
            if let Some(page) = &page {
                query.push(("pageToken", page.clone()));
            }
            let Some(answer) = self.read_json(token, "history", &query).await? else {
                return Ok(None);
            };
            for record in answer["history"].as_array().into_iter().flatten() {
                for added in record["messagesAdded"].as_array().into_iter().flatten() {
                    if let Some(id) = added["message"]["id"].as_str()
                        && !ids.iter().any(|known| known == id)
                    {
                        ids.push(id.to_string());
                    }
                }
            }
            if let Some(id) = history_text(&answer["historyId"]) {
                latest = id;
            }
            match answer["nextPageToken"].as_str() {
                Some(next) => page = Some(next.to_string()),
                None => return Ok(Some((ids, latest))),
            }
        }
    }

    /// The ids of INBOX messages received after `after_ms` (at most `limit`, `users.messages.list`).
    pub async fn inbox_since(
        &self,
        token: &mut Option<Secret>,
        after_ms: i64,
        limit: usize,
    ) -> Result<Vec<String>, SendError> {
        let query = [
            ("q", format!("in:inbox after:{}", after_ms / 1000)),
            ("maxResults", limit.to_string()),
        ];
        let answer = self
            .read_json(token, "messages", &query)
            .await?
            .unwrap_or_default();
        Ok(answer["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|message| message["id"].as_str().map(str::to_string))
            .collect())
    }

    /// One message as raw RFC 5322 bytes (`users.messages.get`, format raw); None when it was deleted meanwhile.
    pub async fn raw_message(
        &self,
        token: &mut Option<Secret>,
        id: &str,
    ) -> Result<Option<Vec<u8>>, SendError> {
        let path = format!("messages/{id}");
        let Some(answer) = self
            .read_json(token, &path, &[("format", "raw".to_string())])
            .await?
        else {
            return Ok(None);
        };
        let raw = answer["raw"]
            .as_str()
            .unwrap_or_default()
            .trim_end_matches('=');
        URL_SAFE_NO_PAD.decode(raw).map(Some).map_err(|_| {
            SendError::Unreachable("Gmail sent a message that could not be decoded".into())
        })
    }
}

/// Gmail sends history ids as strings (and some clients as numbers).
fn history_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) if !text.is_empty() => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A SendGrid sender: the API key (the operator's for basic addresses, the user's own for branded ones).
#[derive(Debug, Clone)]
pub struct SendGrid {
    pub api_url: String,
    pub api_key: Secret,
}

impl SendGrid {
    /// Checks the key can send mail (`GET /v3/scopes` lists `mail.send`).
    pub async fn check_key(&self) -> Result<(), SendError> {
        let response = client()
            .get(format!("{}/v3/scopes", self.api_url.trim_end_matches('/')))
            .bearer_auth(self.api_key.expose())
            .send()
            .await
            .map_err(|error| SendError::Unreachable(format!("SendGrid: {error}")))?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        if matches!(status.as_u16(), 401 | 403) {
            return Err(SendError::Revoked(SENDGRID_KEY_REFUSED.into()));
        }
        if !status.is_success() {
            return Err(status_error("SendGrid", status, &body));
        }
        let scopes: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        let can_send = scopes["scopes"]
            .as_array()
            .is_some_and(|scopes| scopes.iter().any(|scope| scope == "mail.send"));
        if can_send {
            Ok(())
        } else {
            Err(SendError::Revoked(SENDGRID_KEY_REFUSED.into()))
        }
    }

    /// Sends through v3 `mail/send`; returns SendGrid's message id (`X-Message-Id`).
    pub async fn send(&self, composed: &Composed) -> Result<String, SendError> {
        let mut headers = serde_json::Map::new();
        for (name, value) in &composed.headers {
            headers.insert(name.clone(), json!(value));
        }
        headers.insert(
            "Message-ID".into(),
            json!(format!("<{}>", composed.message_id)),
        );
        let mut body = json!({
            "personalizations": [{ "to": [{ "email": composed.to_email }] }],
            "from": { "email": composed.from_email, "name": composed.from_name },
            "subject": composed.subject,
            "content": if composed.html.is_empty() {
                // A plain-text message has no HTML part (issue 81).
                json!([{ "type": "text/plain", "value": composed.text }])
            } else {
                json!([
                    { "type": "text/plain", "value": composed.text },
                    { "type": "text/html", "value": composed.html }
                ])
            },
            "headers": headers,
            // Our own tracking links are in the message; SendGrid's would wrap them again.
            "tracking_settings": { "click_tracking": { "enable": false }, "open_tracking": { "enable": false } },
            "custom_args": { "outreach_message": composed.message_id },
        });
        if let Some(reply_to) = &composed.reply_to {
            body["reply_to"] = json!({ "email": reply_to });
        }
        let response = client()
            .post(format!(
                "{}/v3/mail/send",
                self.api_url.trim_end_matches('/')
            ))
            .bearer_auth(self.api_key.expose())
            .json(&body)
            .send()
            .await
            .map_err(|error| SendError::Unreachable(format!("SendGrid: {error}")))?;
        let status = response.status();
        let id = response
            .headers()
            .get("x-message-id")
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let text = response.text().await.unwrap_or_default();
        if status.is_success() {
            return Ok(id);
        }
        if matches!(status.as_u16(), 401 | 403) {
            return Err(SendError::Revoked(SENDGRID_KEY_REFUSED.into()));
        }
        Err(status_error("SendGrid", status, &text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_gmail_mailbox_has_its_own_pace() {
        assert!(
            GMAIL_PACE
                .check_key(&"pace-a@gmail.com".to_string())
                .is_ok()
        );
        // A second send at once waits for its turn; another mailbox does not.
        assert!(
            GMAIL_PACE
                .check_key(&"pace-a@gmail.com".to_string())
                .is_err()
        );
        assert!(
            GMAIL_PACE
                .check_key(&"pace-b@gmail.com".to_string())
                .is_ok()
        );
    }
}
