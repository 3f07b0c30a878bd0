//! Handing a composed message to its sender: SMTP (lettre, with the configured security and credentials) or the
//! local outbox (kept in the database, nothing leaves the machine). Errors say whether the sender refused the
//! message or could not be reached, so the worker can keep a message queued rather than lose it.

use std::time::Duration;

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::compose::Composed;
use crate::config::Secret;
use crate::outbound::EmailConfig;
use crate::security::decrypt_secret;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The server answered and refused (bad address, authentication, policy): retrying will not help.
    #[error("{0}")]
    Refused(String),
    /// The server could not be reached or dropped the connection: the message may be retried.
    #[error("{0}")]
    Unreachable(String),
    /// The message itself cannot be built (an address that does not parse).
    #[error("{0}")]
    Invalid(String),
}

/// The SMTP settings of a configuration, with the password decrypted.
#[derive(Debug, Clone)]
pub struct SmtpServer {
    pub host: String,
    pub port: u16,
    pub security: String,
    pub username: Option<String>,
    pub password: Option<Secret>,
}

impl SmtpServer {
    pub fn from_config(config: &EmailConfig, key: &Secret) -> Result<Self, SendError> {
        let host = config
            .smtp_host
            .clone()
            .ok_or_else(|| SendError::Invalid("the SMTP configuration has no host".into()))?;
        let password = match &config.secret {
            Some(stored) => Some(decrypt_secret(key, stored).ok_or_else(|| {
                SendError::Refused(
                    "the stored SMTP password cannot be read with this instance's key; save it again".into(),
                )
            })?),
            None => None,
        };
        Ok(Self {
            host,
            port: config.smtp_port.unwrap_or(587).clamp(1, 65535) as u16,
            security: config
                .smtp_security
                .clone()
                .unwrap_or_else(|| "starttls".into()),
            username: config.smtp_username.clone(),
            password,
        })
    }

    /// A transport with a small connection pool: consecutive messages reuse the connection.
    pub fn transport(&self) -> Result<AsyncSmtpTransport<Tokio1Executor>, SendError> {
        let tls = || {
            TlsParameters::new(self.host.clone())
                .map_err(|error| SendError::Invalid(format!("TLS settings: {error}")))
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&self.host)
            .port(self.port)
            .timeout(Some(Duration::from_secs(30)));
        builder = match self.security.as_str() {
            "tls" => builder.tls(Tls::Wrapper(tls()?)),
            "starttls" => builder.tls(Tls::Required(tls()?)),
            _ => builder.tls(Tls::None),
        };
        if let (Some(username), Some(password)) = (&self.username, &self.password) {
            builder = builder.credentials(Credentials::new(
                username.clone(),
                password.expose().to_string(),
            ));
        }
        Ok(builder.build())
    }

    /// Connects, greets and authenticates, as a check when the configuration is saved.
    pub async fn check(&self) -> Result<(), SendError> {
        let transport = self.transport()?;
        match transport.test_connection().await {
            Ok(true) => Ok(()),
            Ok(false) => Err(SendError::Unreachable(format!(
                "{}:{} did not accept a connection",
                self.host, self.port
            ))),
            Err(error) => Err(smtp_error(&error)),
        }
    }
}

/// The RFC 5322 message: both body parts, the Message-ID, Reply-To and the one-click unsubscribe headers.
pub fn build_message(composed: &Composed) -> Result<Message, SendError> {
    let mailbox = |name: Option<&str>, address: &str| -> Result<Mailbox, SendError> {
        let email = address
            .parse()
            .map_err(|_| SendError::Invalid(format!("{address} is not a valid address")))?;
        Ok(Mailbox::new(name.map(str::to_string), email))
    };
    let mut builder = Message::builder()
        .from(mailbox(Some(&composed.from_name), &composed.from_email)?)
        .to(mailbox(None, &composed.to_email)?)
        .subject(composed.subject.clone())
        .message_id(Some(format!("<{}>", composed.message_id)));
    if let Some(reply_to) = &composed.reply_to {
        builder = builder.reply_to(mailbox(None, reply_to)?);
    }
    for (name, value) in &composed.headers {
        let name = HeaderName::new_from_ascii(name.clone())
            .map_err(|_| SendError::Invalid(format!("header name {name}")))?;
        builder = builder.raw_header(HeaderValue::new(name, value.clone()));
    }
    builder
        .multipart(MultiPart::alternative_plain_html(
            composed.text.clone(),
            composed.html.clone(),
        ))
        .map_err(|error| SendError::Invalid(error.to_string()))
}

/// Sends over SMTP.
pub async fn send_smtp(
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    composed: &Composed,
) -> Result<(), SendError> {
    let message = build_message(composed)?;
    transport
        .send(message)
        .await
        .map(|_| ())
        .map_err(|error| smtp_error(&error))
}

/// A permanent (5xx) or transient (4xx) answer is the server's word; anything else is a connection problem.
fn smtp_error(error: &lettre::transport::smtp::Error) -> SendError {
    let text = error.to_string();
    if error.is_permanent() {
        SendError::Refused(format!("the SMTP server refused: {text}"))
    } else if error.is_transient() {
        SendError::Unreachable(format!("the SMTP server asked to try later: {text}"))
    } else {
        SendError::Unreachable(format!("the SMTP server could not be reached: {text}"))
    }
}
