//! An Anthropic Messages API client; the draft comes back as the input of a forced tool call, which follows the
//! schema.

use serde_json::{Value, json};

use super::{AiError, Brief, Draft, Endpoint, Material, prompt};
use crate::platform::config::AiSettings;

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
pub const API_VERSION: &str = "2023-06-01";
const TOOL: &str = "write_email";

#[derive(Debug, Clone)]
pub struct AnthropicClient {
    endpoint: Endpoint,
}

impl AnthropicClient {
    pub fn new(http: reqwest::Client, settings: &AiSettings) -> Self {
        Self {
            endpoint: Endpoint::new(http, settings, DEFAULT_BASE_URL, "claude-3-5-haiku-latest"),
        }
    }

    pub fn model(&self) -> &str {
        &self.endpoint.model
    }

    pub async fn write(&self, brief: &Brief, material: &Material) -> Result<Draft, AiError> {
        let answer = self
            .ask(
                prompt::SYSTEM,
                &prompt::user_message(brief, material),
                TOOL,
                prompt::draft_schema(),
            )
            .await?;
        serde_json::from_value(answer).map_err(|_| {
            AiError::Failed("the model did not answer with a subject and a body".into())
        })
    }

    /// Asks the model with a system and a user message for a JSON answer that follows `schema`: the input of a
    /// forced call of the tool `name`.
    pub async fn ask(
        &self,
        system: &str,
        user: &str,
        name: &str,
        schema: Value,
    ) -> Result<Value, AiError> {
        if self.endpoint.api_key.is_empty() {
            return Err(AiError::Unavailable(
                "no API key is configured for Anthropic".into(),
            ));
        }
        let body = json!({
            "model": self.endpoint.model,
            "max_tokens": 1500,
            "system": system,
            "messages": [{ "role": "user", "content": user }],
            "tools": [{ "name": name, "description": "Return the answer", "input_schema": schema }],
            "tool_choice": { "type": "tool", "name": name }
        });
        let response = self
            .endpoint
            .http
            .post(format!("{}/v1/messages", self.endpoint.base_url))
            .header("x-api-key", self.endpoint.api_key.expose())
            .header("anthropic-version", API_VERSION)
            .json(&body)
            .send()
            .await
            .map_err(|error| AiError::from_transport("Anthropic", error))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|error| AiError::from_transport("Anthropic", error))?;
        if !status.is_success() {
            return Err(AiError::from_status("Anthropic", status, &text));
        }
        let answer: Value = serde_json::from_str(&text)
            .map_err(|_| AiError::Failed("Anthropic's answer is not JSON".into()))?;
        answer["content"]
            .as_array()
            .and_then(|blocks| {
                blocks
                    .iter()
                    .find(|block| block["type"] == "tool_use" && block["name"] == name)
            })
            .map(|block| block["input"].clone())
            .ok_or_else(|| AiError::Failed("Anthropic did not return the answer".into()))
    }
}
