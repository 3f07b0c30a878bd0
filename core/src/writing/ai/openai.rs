//! An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp's server) asking for a JSON
//! answer that follows a schema.

use serde_json::{Value, json};

use super::{AiError, Brief, Draft, Endpoint, Material, prompt};
use crate::platform::config::AiSettings;

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

#[derive(Debug, Clone)]
pub struct OpenAiClient {
    endpoint: Endpoint,
}

impl OpenAiClient {
    pub fn new(http: reqwest::Client, settings: &AiSettings) -> Self {
        Self {
            endpoint: Endpoint::new(http, settings, DEFAULT_BASE_URL, "gpt-4o-mini"),
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
                "outreach_email",
                prompt::draft_schema(),
            )
            .await?;
        serde_json::from_value::<Draft>(answer).map_err(|_| {
            AiError::Failed("the model did not answer with a subject and a body".into())
        })
    }

    /// Asks the model with a system and a user message for a JSON answer that follows `schema` (strict structured
    /// output); answers the JSON.
    pub async fn ask(
        &self,
        system: &str,
        user: &str,
        name: &str,
        schema: Value,
    ) -> Result<Value, AiError> {
        if self.endpoint.api_key.is_empty() && !self.endpoint.is_local() {
            return Err(AiError::Unavailable(
                "no API key is configured for the OpenAI-compatible provider".into(),
            ));
        }
        let body = json!({
            "model": self.endpoint.model,
            "messages": [
                { "role": "system", "content": system },
                { "role": "user", "content": user }
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": { "name": name, "strict": true, "schema": schema }
            },
            "temperature": 0.7
        });
        let mut request = self
            .endpoint
            .http
            .post(format!("{}/chat/completions", self.endpoint.base_url))
            .json(&body);
        if !self.endpoint.api_key.is_empty() {
            request = request.bearer_auth(self.endpoint.api_key.expose());
        }
        let response = request
            .send()
            .await
            .map_err(|error| AiError::from_transport("the AI provider", error))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|error| AiError::from_transport("the AI provider", error))?;
        if !status.is_success() {
            return Err(quota_or_status(status, &text));
        }
        let answer: Value = serde_json::from_str(&text)
            .map_err(|_| AiError::Failed("the provider's answer is not JSON".into()))?;
        let message = &answer["choices"][0]["message"];
        if let Some(refusal) = message["refusal"].as_str() {
            return Err(AiError::Failed(format!("the model refused: {refusal}")));
        }
        let content = message["content"]
            .as_str()
            .ok_or_else(|| AiError::Failed("the provider's answer has no message".into()))?;
        serde_json::from_str(content)
            .map_err(|_| AiError::Failed("the model's answer is not the JSON asked for".into()))
    }
}

/// OpenAI reports an exhausted quota as 429 `insufficient_quota`, a bad key as 401.
fn quota_or_status(status: reqwest::StatusCode, body: &str) -> AiError {
    if body.contains("insufficient_quota") {
        return AiError::Limit("the AI provider's quota is used up".into());
    }
    AiError::from_status("the AI provider", status, body)
}
