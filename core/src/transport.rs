//! Handing a composed message to an SMTP server (lettre's connection, on a socket of our own with TCP_NODELAY, with
//! the configured security and credentials). Errors say whether the sender refused the
//! message or could not be reached, so the worker can keep a message queued rather than lose it.

use std::time::Duration;

use lettre::Message;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, TlsParameters};
use lettre::transport::smtp::extension::ClientId;

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

    /// Connects, greets and authenticates, as a check when the configuration is saved.
    pub async fn check(&self) -> Result<(), SendError> {
        let mut connection = SmtpSession::new(self.clone()).connect().await?;
        connection.quit().await.ok();
        Ok(())
    }
}

/// One SMTP connection kept open for a batch of messages. The socket has TCP_NODELAY: without it, Nagle's
/// algorithm and the server's delayed ACK hold every message's last segment for about 40 ms, capping a connection
/// near 22 messages a second. No NOOP is sent between messages; a broken connection is opened again.
pub struct SmtpSession {
    server: SmtpServer,
    connection: Option<AsyncSmtpConnection>,
}

impl SmtpSession {
    pub fn new(server: SmtpServer) -> Self {
        Self {
            server,
            connection: None,
        }
    }

    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let server = &self.server;
        let hello = ClientId::default();
        let timeout = Duration::from_secs(30);
        let tls = || {
            TlsParameters::new(server.host.clone())
                .map_err(|error| SendError::Invalid(format!("TLS settings: {error}")))
        };
        let mut connection = if server.security == "tls" {
            // Implicit TLS wraps the socket before the greeting: lettre opens that one itself.
            AsyncSmtpConnection::connect_tokio1(
                (server.host.as_str(), server.port),
                Some(timeout),
                &hello,
                Some(tls()?),
                None,
            )
            .await
            .map_err(|error| smtp_error(&error))?
        } else {
            let stream = tokio::time::timeout(
                timeout,
                tokio::net::TcpStream::connect((server.host.as_str(), server.port)),
            )
            .await
            .map_err(|_| {
                SendError::Unreachable(format!("{}:{} did not answer", server.host, server.port))
            })?
            .map_err(|error| {
                SendError::Unreachable(format!("the SMTP server could not be reached: {error}"))
            })?;
            stream.set_nodelay(true).ok();
            let mut connection =
                AsyncSmtpConnection::connect_with_transport(Box::new(stream), &hello)
                    .await
                    .map_err(|error| smtp_error(&error))?;
            if server.security == "starttls" {
                connection
                    .starttls(tls()?, &hello)
                    .await
                    .map_err(|error| smtp_error(&error))?;
            }
            connection
        };
        if let (Some(username), Some(password)) = (&server.username, &server.password) {
            let credentials = Credentials::new(username.clone(), password.expose().to_string());
            connection
                .auth(&[Mechanism::Plain, Mechanism::Login], &credentials)
                .await
                .map_err(|error| smtp_error(&error))?;
        }
        Ok(connection)
    }

    /// Sends one message, connecting (again) when needed.
    pub async fn send(&mut self, composed: &Composed) -> Result<(), SendError> {
        let message = build_message(composed)?;
        let bytes = message.formatted();
        if self
            .connection
            .as_ref()
            .is_none_or(AsyncSmtpConnection::has_broken)
        {
            self.connection = Some(self.connect().await?);
        }
        let connection = self.connection.as_mut().expect("connected above");
        let result = connection.send(message.envelope(), &bytes).await;
        if result.is_err() && connection.has_broken() {
            self.connection = None;
        }
        result.map(|_| ()).map_err(|error| smtp_error(&error))
    }

    /// Says goodbye to the server.
    pub async fn close(&mut self) {
        if let Some(mut connection) = self.connection.take() {
            connection.quit().await.ok();
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
