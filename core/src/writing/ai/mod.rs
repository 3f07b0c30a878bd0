//! The AI email writer (A §4 AI composer, §5 Template composer, §8 Generation): the brief a user fills in, the
//! writer chosen by configuration (an OpenAI-compatible chat API, Anthropic, or the offline writer); the rates a draft
//! may expect are `campaigns::rates`.

pub mod anthropic;
pub mod offline;
pub mod openai;
pub mod prompt;
pub mod writer;

use serde::{Deserialize, Serialize};

use crate::campaigns::templates::TONES;

use crate::platform::config::AiSettings;
use crate::platform::invalid::Invalid;

/// What the composer form sends (A §7 `POST /api/emails/generate`), plus the campaign whose education to use
/// and, for adjustments, the draft being revised.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Brief {
    pub template_name: String,
    pub objective: String,
    pub service_description: String,
    pub value_proposition: String,
    pub your_ask: String,
    pub promotional_url: String,
    pub adjustments: String,
    pub tone: String,
    pub email_signature: String,
    pub ai_education_text: String,
    pub ai_education_files: Vec<String>,
    pub campaign_id: Option<i64>,
    pub previous: Option<Draft>,
    /// When writing for one business: its public details (data for the prompt, never instructions).
    pub business: Option<BusinessFacts>,
    /// Draft a second A/B variant (issue 81) of `previous` (or of the email the brief describes): another subject
    /// and first line, the same offer and ask.
    pub second_variant: bool,
}

/// A subject and an HTML body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Draft {
    pub subject: String,
    pub body: String,
}

/// Facts the writer may use besides the brief: the sender's education material and, when writing for one
/// business, that business's public details. All of it is data, never instructions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Material {
    /// (file name or "notes", text)
    pub education: Vec<(String, String)>,
    pub business: Option<BusinessFacts>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BusinessFacts {
    pub name: String,
    pub category: Option<String>,
    pub city: Option<String>,
    pub website: Option<String>,
    pub description: Option<String>,
}

impl Brief {
    /// The composer's rules (A §5), first failure first.
    pub fn validate(&mut self) -> Result<(), Invalid> {
        let required = [
            (&self.template_name, "Template name is required"),
            (&self.objective, "Objective is required"),
            (&self.service_description, "Service description is required"),
            (&self.value_proposition, "Value proposition is required"),
            (&self.your_ask, "Your ask is required"),
            (&self.email_signature, "Email signature is required"),
        ];
        for (value, message) in required {
            if value.trim().is_empty() {
                return Err(message.into());
            }
        }
        let url = self.promotional_url.trim();
        if !url.is_empty() && !is_web_url(url) {
            return Err("Please enter a valid URL".into());
        }
        if self.tone.trim().is_empty() {
            self.tone = "professional".to_string();
        }
        if !TONES.contains(&self.tone.as_str()) {
            return Err("Tone must be professional, friendly or casual".into());
        }
        Ok(())
    }
}

fn is_web_url(text: &str) -> bool {
    url::Url::parse(text)
        .is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
}

/// A provider failure, worded so the composer's messages (A §8) follow from it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// A missing or refused API key.
    #[error("AI service unavailable: {0}")]
    Unavailable(String),
    /// Quota or rate limit.
    #[error("Service limit reached: {0}")]
    Limit(String),
    /// The provider could not be reached.
    #[error("Connection error: network failure reaching the AI provider ({0})")]
    Connection(String),
    #[error("Generation failed: {0}")]
    Failed(String),
}

impl AiError {
    /// Maps an HTTP answer of a provider.
    fn from_status(provider: &str, status: reqwest::StatusCode, body: &str) -> Self {
        let detail: String = body.chars().take(300).collect();
        match status.as_u16() {
            401 | 403 => AiError::Unavailable(format!("{provider} refused the API key ({status})")),
            429 => AiError::Limit(format!("{provider} quota or rate limit reached")),
            529 => AiError::Limit(format!("{provider} is overloaded")),
            _ => AiError::Failed(format!("{provider} answered {status}: {detail}")),
        }
    }

    fn from_transport(provider: &str, error: reqwest::Error) -> Self {
        if error.is_decode() {
            AiError::Failed(format!("{provider} sent an answer that could not be read"))
        } else {
            AiError::Connection(format!("{provider}: {error}"))
        }
    }
}

/// Where and how a provider client connects: base URL (the provider's own unless configured), key and model.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub http: reqwest::Client,
    pub base_url: String,
    pub api_key: crate::platform::config::Secret,
    pub model: String,
}

impl Endpoint {
    pub fn new(
        http: reqwest::Client,
        settings: &AiSettings,
        default_base_url: &str,
        default_model: &str,
    ) -> Self {
        let base_url = if settings.base_url.is_empty() {
            default_base_url
        } else {
            &settings.base_url
        };
        let model = if settings.model.is_empty() {
            default_model
        } else {
            &settings.model
        };
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key: settings.api_key.clone(),
            model: model.to_string(),
        }
    }

    /// A server on this machine (Ollama, llama.cpp) needs no key.
    pub fn is_local(&self) -> bool {
        self.base_url.contains("://127.0.0.1") || self.base_url.contains("://localhost")
    }
}

/// A draft and what the writer wants the user to know about it (e.g. adjustments the offline writer applied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub draft: Draft,
    pub notes: Vec<String>,
}

impl From<Draft> for Written {
    fn from(draft: Draft) -> Self {
        Written {
            draft,
            notes: Vec::new(),
        }
    }
}
