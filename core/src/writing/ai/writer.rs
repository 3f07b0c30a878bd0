//! The configured writer: the offline one or a model's client, picked once from `ai.provider`; every draft's body
//! is sanitised whoever wrote it.

use std::time::Duration;

use super::{AiError, Brief, Draft, Material, Written, anthropic, offline, openai};
use crate::campaigns::personalise::sanitize_html;
use crate::platform::config::{AiProvider, AiSettings};

/// The configured writer.
#[derive(Debug, Clone)]
pub enum Writer {
    Offline,
    OpenAi(openai::OpenAiClient),
    Anthropic(anthropic::AnthropicClient),
}

impl Writer {
    pub fn from_settings(settings: &AiSettings) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(settings.timeout_seconds.max(1)))
            .build()
            .map_err(|error| error.to_string())?;
        Ok(match settings.provider {
            AiProvider::Offline => Writer::Offline,
            AiProvider::OpenAi => Writer::OpenAi(openai::OpenAiClient::new(http, settings)),
            AiProvider::Anthropic => {
                Writer::Anthropic(anthropic::AnthropicClient::new(http, settings))
            }
        })
    }

    /// What the UI shows as the author of a draft.
    pub fn name(&self) -> String {
        match self {
            Writer::Offline => "offline".to_string(),
            Writer::OpenAi(client) => format!("openai:{}", client.model()),
            Writer::Anthropic(client) => format!("anthropic:{}", client.model()),
        }
    }

    /// Asks the configured model for a JSON answer that follows `schema`; None for the offline writer, which has no
    /// model.
    pub async fn ask(
        &self,
        system: &str,
        user: &str,
        name: &str,
        schema: serde_json::Value,
    ) -> Option<Result<serde_json::Value, AiError>> {
        match self {
            Writer::Offline => None,
            Writer::OpenAi(client) => Some(client.ask(system, user, name, schema).await),
            Writer::Anthropic(client) => Some(client.ask(system, user, name, schema).await),
        }
    }

    /// Writes a draft; the HTML body is sanitised whoever wrote it.
    pub async fn write(&self, brief: &Brief, material: &Material) -> Result<Written, AiError> {
        let written = match self {
            Writer::Offline => offline::write(brief, material),
            Writer::OpenAi(client) => Written::from(client.write(brief, material).await?),
            Writer::Anthropic(client) => Written::from(client.write(brief, material).await?),
        };
        Ok(Written {
            draft: Draft {
                subject: written.draft.subject.trim().to_string(),
                body: sanitize_html(&written.draft.body),
            },
            ..written
        })
    }
}
