//! The configured writer: the offline one or a model's client, picked once from `ai.provider`; every draft's body
//! is sanitised whoever wrote it.

use std::time::{Duration, Instant};

use super::{AiError, Brief, Draft, Material, Written, anthropic, offline, openai};
use crate::campaigns::personalise::sanitize_html;
use crate::platform::config::{AiProvider, AiSettings};
use crate::platform::invalid::Invalid;
use crate::platform::telemetry;

/// The configured writer.
#[derive(Debug, Clone)]
pub enum Writer {
    Offline,
    OpenAi(openai::OpenAiClient),
    Anthropic(anthropic::AnthropicClient),
}

impl Writer {
    pub fn from_settings(settings: &AiSettings) -> Result<Self, Invalid> {
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

    /// The provider, as the AI metrics label it.
    fn provider(&self) -> &'static str {
        match self {
            Writer::Offline => "offline",
            Writer::OpenAi(_) => "openai",
            Writer::Anthropic(_) => "anthropic",
        }
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
        let started = Instant::now();
        let answer = match self {
            Writer::Offline => return None,
            Writer::OpenAi(client) => client.ask(system, user, name, schema).await,
            Writer::Anthropic(client) => client.ask(system, user, name, schema).await,
        };
        telemetry::ai_call(
            self.provider(),
            name.to_string(),
            answer.is_ok(),
            started.elapsed(),
        );
        Some(answer)
    }

    /// Writes a draft; the HTML body is sanitised whoever wrote it.
    pub async fn write(&self, brief: &Brief, material: &Material) -> Result<Written, AiError> {
        let started = Instant::now();
        let written = match self {
            Writer::Offline => Ok(offline::write(brief, material)),
            Writer::OpenAi(client) => client.write(brief, material).await.map(Written::from),
            Writer::Anthropic(client) => client.write(brief, material).await.map(Written::from),
        };
        telemetry::ai_call(
            self.provider(),
            "email".to_string(),
            written.is_ok(),
            started.elapsed(),
        );
        let written = written?;
        Ok(Written {
            draft: Draft {
                subject: written.draft.subject.trim().to_string(),
                body: sanitize_html(&written.draft.body),
            },
            ..written
        })
    }
}
