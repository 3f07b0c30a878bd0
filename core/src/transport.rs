//! Handing a composed message to an SMTP server (lettre's connection, on a socket of our own with TCP_NODELAY, with
//! the configured security and credentials). Errors say whether the sender refused the
//! message or could not be reached, so the worker can keep a message queued rather than lose it.

use std::time::Duration;

use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Ehlo, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{
    ClientId, Extension, MailBodyParameter, MailParameter, ServerInfo,
};
use lettre::transport::smtp::response::Response;

use crate::compose::Composed;
use crate::config::Secret;
use crate::mime;
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
        connection.smtp.quit().await.ok();
        Ok(())
    }
}

/// One SMTP connection kept open for a batch of messages. The socket has TCP_NODELAY: without it, Nagle's
/// algorithm and the server's delayed ACK hold every message's last segment for about 40 ms, capping a connection
/// near 22 messages a second. No NOOP is sent between messages; a broken connection is opened again. When the
/// server offers PIPELINING (RFC 2920), each message costs one write and one round trip: its content goes out
/// together with the next message's MAIL, RCPT and DATA.
pub struct SmtpSession {
    server: SmtpServer,
    connection: Option<Connection>,
}

struct Connection {
    smtp: AsyncSmtpConnection,
    pipelining: bool,
}

/// The messages of a run, each built for the wire when the run reaches it (a run may end early).
struct Wires<'a> {
    messages: &'a [Composed],
    server: ServerInfo,
    built: Vec<Result<Wire, SendError>>,
}

impl Wires<'_> {
    fn get(&mut self, index: usize) -> Option<&Result<Wire, SendError>> {
        while self.built.len() <= index && self.built.len() < self.messages.len() {
            let composed = &self.messages[self.built.len()];
            self.built.push(Wire::of(composed, &self.server));
        }
        self.built.get(index)
    }
}

/// A message ready for the wire: its envelope commands and its dot-stuffed content with the final dot.
struct Wire {
    commands: String,
    content: String,
}

impl SmtpSession {
    pub fn new(server: SmtpServer) -> Self {
        Self {
            server,
            connection: None,
        }
    }

    async fn connect(&self) -> Result<Connection, SendError> {
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
        // lettre keeps only the extensions it uses itself: ask again to learn whether PIPELINING is offered.
        let extensions = connection
            .command(Ehlo::new(hello.clone()))
            .await
            .map_err(|error| smtp_error(&error))?;
        let pipelining = extensions
            .message()
            .any(|line| line.trim().eq_ignore_ascii_case("PIPELINING"));
        if let (Some(username), Some(password)) = (&server.username, &server.password) {
            let credentials = Credentials::new(username.clone(), password.expose().to_string());
            connection
                .auth(&[Mechanism::Plain, Mechanism::Login], &credentials)
                .await
                .map_err(|error| smtp_error(&error))?;
        }
        Ok(Connection {
            smtp: connection,
            pipelining,
        })
    }

    /// Sends messages in order over the open connection (connecting when needed). Returns one result per message
    /// attempted, in order. It stops after the first message the server deferred (4xx) or the connection failed on,
    /// or before the next message once `stopping` says so: nothing after the last result was handed over, so the
    /// rest can wait in the queue. A message the server refused (5xx) or that cannot be built fails alone.
    pub async fn send_all(
        &mut self,
        messages: &[Composed],
        stopping: &(dyn Fn() -> bool + Sync),
    ) -> Vec<Result<(), SendError>> {
        if messages.is_empty() {
            return Vec::new();
        }
        if self.connection.is_none() {
            match self.connect().await {
                Ok(connection) => self.connection = Some(connection),
                // Nothing can be handed over: a refusal (authentication, TLS) fails every message, an unreachable
                // server the first, which stops the rest.
                Err(SendError::Unreachable(reason)) => {
                    return vec![Err(SendError::Unreachable(reason))];
                }
                Err(error) => return vec![Err(error); messages.len()],
            }
        }
        let connection = self.connection.as_mut().expect("connected above");
        let mut wires = Wires {
            messages,
            server: connection.smtp.server_info().clone(),
            built: Vec::new(),
        };
        let (results, broken) = if connection.pipelining {
            send_pipelined(&mut connection.smtp, &mut wires, stopping).await
        } else {
            send_one_by_one(&mut connection.smtp, &mut wires, stopping).await
        };
        if broken && let Some(mut connection) = self.connection.take() {
            connection.smtp.abort().await;
        }
        results
    }

    /// Says goodbye to the server.
    pub async fn close(&mut self) {
        if let Some(mut connection) = self.connection.take() {
            connection.smtp.quit().await.ok();
        }
    }
}

impl Wire {
    fn of(composed: &Composed, server: &ServerInfo) -> Result<Self, SendError> {
        let rendered = mime::render(composed, chrono::Utc::now())?;
        let mut parameters = Vec::new();
        if [&rendered.from, &rendered.to]
            .iter()
            .any(|address| !AsRef::<str>::as_ref(address).is_ascii())
        {
            if !server.supports_feature(Extension::SmtpUtfEight) {
                return Err(SendError::Invalid(
                    "the address has characters the SMTP server does not accept (no SMTPUTF8)"
                        .into(),
                ));
            }
            parameters.push(MailParameter::SmtpUtfEight);
        }
        if !rendered.text.is_ascii() {
            if !server.supports_feature(Extension::EightBitMime) {
                return Err(SendError::Invalid(
                    "the message has characters the SMTP server does not accept (no 8BITMIME)"
                        .into(),
                ));
            }
            parameters.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
        let mut commands = Mail::new(Some(rendered.from), parameters).to_string();
        commands.push_str(&Rcpt::new(rendered.to, Vec::new()).to_string());
        commands.push_str(&Data.to_string());
        Ok(Self {
            commands,
            content: dot_stuffed(&rendered.text),
        })
    }
}

/// The message content as DATA carries it: a line that starts with a dot gets a second one (RFC 5321 4.5.2),
/// and the content ends with the lone dot.
fn dot_stuffed(content: &str) -> String {
    let mut wire = String::with_capacity(content.len() + 16);
    for line in content.split_inclusive("\r\n") {
        if line.starts_with('.') {
            wire.push('.');
        }
        wire.push_str(line);
    }
    if !wire.ends_with("\r\n") {
        wire.push_str("\r\n");
    }
    wire.push_str(".\r\n");
    wire
}

/// One write per message: the previous message's content and this message's MAIL, RCPT and DATA go together
/// (RFC 2920 allows content as the first "command" of a group and DATA as its last). Returns the results and
/// whether the connection must be dropped.
async fn send_pipelined(
    smtp: &mut AsyncSmtpConnection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
) -> (Vec<Result<(), SendError>>, bool) {
    let mut results = Vec::with_capacity(wires.messages.len());
    let mut buffer = String::new();
    // The last message's content is written and its answer not read yet.
    let mut awaiting_content = false;
    let mut index = 0;
    loop {
        // A message that cannot be built fails alone (after the answer before it, to keep the order).
        if !awaiting_content {
            while let (Some(Err(error)), false) = (wires.get(index), stopping()) {
                results.push(Err(error.clone()));
                index += 1;
            }
        }
        let next = match wires.get(index) {
            Some(Ok(wire)) if !stopping() => Some(wire),
            _ => None,
        };
        if let Some(wire) = next {
            buffer.push_str(&wire.commands);
        }
        if buffer.is_empty() {
            return (results, false);
        }
        let mut first = Some(smtp.command(&buffer).await);
        buffer.clear();
        if std::mem::take(&mut awaiting_content) {
            match answer(smtp, &mut first)
                .await
                .map_err(|error| smtp_error(&error))
            {
                Ok(()) => results.push(Ok(())),
                Err(error @ SendError::Refused(_)) => results.push(Err(error)),
                // Deferred or cut off: the next message may be waiting for its content, and dropping the
                // connection abandons it.
                Err(error) => {
                    results.push(Err(error));
                    return (results, true);
                }
            }
        }
        let Some(wire) = next else {
            if stopping() {
                return (results, false);
            }
            continue;
        };
        let mut refusal = None;
        let mut data_accepted = false;
        for command in 0..3 {
            match answer(smtp, &mut first)
                .await
                .map_err(|error| smtp_error(&error))
            {
                Ok(()) => data_accepted = command == 2,
                Err(error @ SendError::Refused(_)) => {
                    refusal.get_or_insert(error);
                }
                Err(error) => {
                    results.push(Err(error));
                    return (results, true);
                }
            }
        }
        match refusal {
            None => {
                buffer.push_str(&wire.content);
                awaiting_content = true;
            }
            Some(error) => {
                results.push(Err(error));
                // A server that takes DATA after refusing the envelope waits for content: start afresh.
                if data_accepted {
                    return (results, true);
                }
            }
        }
        index += 1;
    }
}

/// The first answer of a write (read with the write), then the ones after it.
async fn answer(
    smtp: &mut AsyncSmtpConnection,
    first: &mut Option<Result<Response, lettre::transport::smtp::Error>>,
) -> Result<(), lettre::transport::smtp::Error> {
    match first.take() {
        Some(answer) => answer.map(|_| ()),
        None => smtp.read_response().await.map(|_| ()),
    }
}

/// Without PIPELINING: each command waits for its answer.
async fn send_one_by_one(
    smtp: &mut AsyncSmtpConnection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
) -> (Vec<Result<(), SendError>>, bool) {
    let mut results = Vec::with_capacity(wires.messages.len());
    for index in 0..wires.messages.len() {
        if stopping() {
            break;
        }
        let wire = match wires.get(index).expect("within the run") {
            Ok(wire) => wire,
            Err(error) => {
                results.push(Err(error.clone()));
                continue;
            }
        };
        let mut outcome = Ok(());
        for command in wire
            .commands
            .split_inclusive("\r\n")
            .chain([wire.content.as_str()])
        {
            if let Err(error) = smtp.command(command).await {
                outcome = Err(smtp_error(&error));
                break;
            }
        }
        match outcome {
            Err(error @ SendError::Refused(_)) => {
                // A refused MAIL or RCPT leaves a transaction open: start clean for the next message.
                results.push(Err(error));
                if smtp.command(Rset).await.is_err() {
                    return (results, true);
                }
            }
            Err(error) => {
                results.push(Err(error));
                return (results, true);
            }
            Ok(()) => results.push(Ok(())),
        }
    }
    (results, false)
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
