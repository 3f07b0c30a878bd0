//! One SMTP connection: the server's settings and address policy, connecting within deadlines (lookup, TCP, TLS),
//! the greeting, EHLO (HELO when refused), STARTTLS, authentication, and reading replies.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::commands::{Auth, Ehlo, Quit, Starttls};
use lettre::transport::smtp::extension::ClientId;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use crate::Settings;
use crate::platform::config::Secret;
use crate::platform::net::{AddressPolicy, NetError, Security};
use crate::platform::security::decrypt_secret;
use crate::sending::SendError;
use crate::sending::senders::EmailConfig;

/// The longest reply line read, and the most lines of one reply (RFC 5321 allows 512 bytes a line).
pub(super) const MAX_LINE: u64 = 4096;
pub(super) const MAX_REPLY_LINES: usize = 100;
/// How much of a server's reply text an error repeats.
pub(super) const REPLY_TEXT: usize = 200;

/// The SMTP settings of a configuration, with the password decrypted, and how it may be reached.
#[derive(Debug, Clone)]
pub struct SmtpServer {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: Option<String>,
    pub password: Option<Secret>,
    pub policy: AddressPolicy,
    /// Each network step's deadline.
    pub timeout: Duration,
}

impl SmtpServer {
    pub fn from_config(config: &EmailConfig, settings: &Settings) -> Result<Self, SendError> {
        let host = config
            .smtp_host
            .clone()
            .ok_or_else(|| SendError::Invalid("the SMTP configuration has no host".into()))?;
        let password = match &config.secret {
            Some(stored) => Some(decrypt_secret(&settings.security.secret_key, stored).ok_or_else(|| {
                SendError::Refused(
                    "the stored SMTP password cannot be read with this instance's key; save it again".into(),
                )
            })?),
            None => None,
        };
        Ok(Self {
            host,
            port: config.smtp_port.unwrap_or(587).clamp(1, 65535) as u16,
            security: config.smtp_security.unwrap_or_default(),
            username: config.smtp_username.clone(),
            password,
            policy: settings.sending.policy(),
            timeout: settings.sending.timeout(),
        })
    }

    /// Connects, greets and authenticates, as a check when the configuration is saved.
    pub async fn check(&self) -> Result<(), SendError> {
        let mut connection = Connection::open(self).await?;
        connection.quit().await;
        Ok(())
    }

    pub(super) fn place(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// How one exchange with the server went wrong.
#[derive(Debug)]
pub(super) enum Failure {
    /// A 4xx or 5xx reply.
    Reply(Reply),
    /// The connection closed or broke.
    Closed,
    TimedOut,
    /// Not an SMTP reply.
    Garbled,
}

/// One SMTP reply: its code and its text lines.
#[derive(Debug, Clone)]
pub(super) struct Reply {
    pub(super) code: u16,
    pub(super) lines: Vec<String>,
}

impl Reply {
    pub(super) fn is_positive(&self) -> bool {
        self.code < 400
    }

    /// `421`: the server is closing the connection, as if it had closed it.
    pub(super) fn is_closing(&self) -> bool {
        self.code == 421
    }

    /// The reply as an error may show it: code and first line, printable and short.
    pub(super) fn shown(&self) -> String {
        let text: String = self
            .lines
            .first()
            .map(String::as_str)
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_control())
            .take(REPLY_TEXT)
            .collect();
        format!("{} {text}", self.code).trim().to_string()
    }
}

/// What the EHLO answer offers (none of it after HELO).
#[derive(Debug, Clone, Default)]
pub(super) struct Extensions {
    pub(super) pipelining: bool,
    pub(super) starttls: bool,
    pub(super) eight_bit_mime: bool,
    pub(super) smtp_utf8: bool,
    pub(super) auth: Vec<String>,
}

impl Extensions {
    pub(super) fn of(reply: &Reply) -> Self {
        let mut extensions = Self::default();
        for line in reply.lines.iter().skip(1) {
            let mut words = line.split([' ', '=']).filter(|word| !word.is_empty());
            match words.next().map(str::to_ascii_uppercase).as_deref() {
                Some("PIPELINING") => extensions.pipelining = true,
                Some("STARTTLS") => extensions.starttls = true,
                Some("8BITMIME") => extensions.eight_bit_mime = true,
                Some("SMTPUTF8") => extensions.smtp_utf8 = true,
                Some("AUTH") => extensions.auth.extend(words.map(str::to_ascii_uppercase)),
                _ => {}
            }
        }
        extensions
    }
}

/// A byte stream a session runs over: TCP, or TLS over it.
pub(super) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// An open SMTP connection, greeted and signed in.
pub(super) struct Connection {
    /// Unique in this process (`sending::next_connection_id`): hand-overs are recorded per connection.
    pub(super) id: u64,
    pub(super) stream: BufReader<Box<dyn Io>>,
    pub(super) timeout: Duration,
    pub(super) place: String,
    pub(super) extensions: Extensions,
}

impl Connection {
    pub(super) async fn open(server: &SmtpServer) -> Result<Self, SendError> {
        let tcp = server
            .policy
            .connect(&server.host, server.port, server.timeout)
            .await
            .map_err(|error| match error {
                NetError::Blocked(_) => SendError::Refused(format!(
                    "{error}; a server on a private or local network can be used only if the administrator allows it"
                )),
                other => {
                    SendError::Unreachable(format!("the SMTP server could not be reached: {other}"))
                }
            })?;
        let stream: Box<dyn Io> = if server.security == Security::Tls {
            Box::new(tls(server, Box::new(tcp)).await?)
        } else {
            Box::new(tcp)
        };
        let mut connection = Self {
            id: crate::sending::next_connection_id(),
            stream: BufReader::new(stream),
            timeout: server.timeout,
            place: server.place(),
            extensions: Extensions::default(),
        };
        let greeting = connection
            .read_reply()
            .await
            .map_err(|failure| connection.error(failure))?;
        if !greeting.is_positive() {
            return Err(connection.error(Failure::Reply(greeting)));
        }
        connection.hello().await?;
        if server.security == Security::StartTls {
            if !connection.extensions.starttls {
                return Err(SendError::Refused(
                    "the SMTP server does not offer STARTTLS: choose the security it supports (none or tls)"
                        .into(),
                ));
            }
            connection.expect(&Starttls.to_string()).await?;
            // Anything the server sent after agreeing to TLS would be read as if it came encrypted.
            if !connection.stream.buffer().is_empty() {
                return Err(SendError::Refused(
                    "the SMTP server sent data before the TLS handshake".into(),
                ));
            }
            let plain = std::mem::replace(
                &mut connection.stream,
                BufReader::new(Box::new(tokio::io::join(
                    tokio::io::empty(),
                    tokio::io::sink(),
                ))),
            );
            connection.stream = BufReader::new(Box::new(tls(server, plain.into_inner()).await?));
            connection.hello().await?;
        }
        if let (Some(username), Some(password)) = (&server.username, &server.password) {
            connection
                .authenticate(Credentials::new(
                    username.clone(),
                    password.expose().to_string(),
                ))
                .await?;
        }
        Ok(connection)
    }

    /// EHLO, and HELO when the server does not know EHLO (a 5xx answer).
    pub(super) async fn hello(&mut self) -> Result<(), SendError> {
        let client = ClientId::default();
        match self.command(&Ehlo::new(client.clone()).to_string()).await {
            Ok(reply) => {
                self.extensions = Extensions::of(&reply);
                Ok(())
            }
            Err(Failure::Reply(reply)) if reply.code >= 500 => {
                self.extensions = Extensions::default();
                self.expect(&format!("HELO {client}\r\n")).await.map(|_| ())
            }
            Err(failure) => Err(self.error(failure)),
        }
    }

    /// AUTH with PLAIN or LOGIN, answering the server's challenges.
    pub(super) async fn authenticate(&mut self, credentials: Credentials) -> Result<(), SendError> {
        let offered = |name: &str| self.extensions.auth.iter().any(|offered| offered == name);
        let mechanism = if offered("PLAIN") {
            Mechanism::Plain
        } else if offered("LOGIN") {
            Mechanism::Login
        } else if self.extensions.auth.is_empty() {
            return Err(SendError::Refused(
                "the SMTP server offers no sign-in here: remove the username and password, or use the port and \
                 security where it does"
                    .into(),
            ));
        } else {
            return Err(SendError::Refused(
                "the SMTP server offers neither PLAIN nor LOGIN sign-in".into(),
            ));
        };
        let first = Auth::new(mechanism, credentials.clone(), None)
            .map_err(|error| SendError::Refused(format!("sign-in: {error}")))?;
        let mut reply = self.expect(&first.to_string()).await?;
        for _ in 0..3 {
            if reply.code != 334 {
                break;
            }
            let challenge = reply
                .lines
                .first()
                .and_then(|line| STANDARD.decode(line.trim()).ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
            let answer = mechanism
                .response(&credentials, challenge.as_deref())
                .map_err(|error| SendError::Refused(format!("sign-in: {error}")))?;
            reply = self
                .expect(&format!("{}\r\n", STANDARD.encode(answer)))
                .await?;
        }
        // A failure answer ended in `expect`; what is left is a success code other than 235 (Postfix's smtp-sink
        // says "250 2.0.0 Ok" to anything), or a challenge past the third: no refusal, and no sign-in either.
        if reply.code == 235 {
            Ok(())
        } else {
            Err(SendError::Refused(format!(
                "the SMTP server did not confirm the sign-in: it answered \"{}\" where a server that checks \
                 passwords answers 235. If this server needs no sign-in, remove the username and password",
                reply.shown()
            )))
        }
    }

    /// Writes `text` and reads the answer; a 4xx or 5xx answer is a failure.
    pub(super) async fn command(&mut self, text: &str) -> Result<Reply, Failure> {
        self.write(text).await?;
        let reply = self.read_reply().await?;
        if reply.is_positive() {
            Ok(reply)
        } else {
            Err(Failure::Reply(reply))
        }
    }

    /// `command`, with its failure in words.
    pub(super) async fn expect(&mut self, text: &str) -> Result<Reply, SendError> {
        self.command(text)
            .await
            .map_err(|failure| self.error(failure))
    }

    pub(super) async fn write(&mut self, text: &str) -> Result<(), Failure> {
        let stream = self.stream.get_mut();
        let write = async {
            stream.write_all(text.as_bytes()).await?;
            stream.flush().await
        };
        match tokio::time::timeout(self.timeout, write).await {
            Err(_) => Err(Failure::TimedOut),
            Ok(Err(_)) => Err(Failure::Closed),
            Ok(Ok(())) => Ok(()),
        }
    }

    /// One reply (all its lines), within the deadline.
    pub(super) async fn read_reply(&mut self) -> Result<Reply, Failure> {
        let stream = &mut self.stream;
        let read = async {
            let mut reply: Option<Reply> = None;
            loop {
                let mut line = Vec::new();
                let length = (&mut *stream)
                    .take(MAX_LINE)
                    .read_until(b'\n', &mut line)
                    .await
                    .map_err(|_| Failure::Closed)?;
                if length == 0 {
                    return Err(Failure::Closed);
                }
                if !line.ends_with(b"\n") {
                    return Err(Failure::Garbled);
                }
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\r', '\n']);
                let bytes = text.as_bytes();
                let code = (bytes.len() >= 3 && bytes[..3].iter().all(u8::is_ascii_digit))
                    .then(|| text[..3].parse::<u16>().ok())
                    .flatten()
                    .filter(|code| (200..600).contains(code))
                    .ok_or(Failure::Garbled)?;
                let last = match bytes.get(3) {
                    None | Some(b' ') => true,
                    Some(b'-') => false,
                    Some(_) => return Err(Failure::Garbled),
                };
                let reply = reply.get_or_insert(Reply {
                    code,
                    lines: Vec::new(),
                });
                if reply.code != code || reply.lines.len() >= MAX_REPLY_LINES {
                    return Err(Failure::Garbled);
                }
                reply
                    .lines
                    .push(text.get(4..).unwrap_or_default().to_string());
                if last {
                    return Ok(reply.clone());
                }
            }
        };
        tokio::time::timeout(self.timeout, read)
            .await
            .unwrap_or(Err(Failure::TimedOut))
    }

    /// A failure in words for the user: 5xx refusals and garbled answers will not change on a retry.
    pub(super) fn error(&self, failure: Failure) -> SendError {
        match failure {
            Failure::Reply(reply) if reply.code >= 500 => {
                SendError::Refused(format!("the SMTP server refused: {}", reply.shown()))
            }
            Failure::Reply(reply) => SendError::Unreachable(format!(
                "the SMTP server asked to try later: {}",
                reply.shown()
            )),
            Failure::Closed => SendError::Unreachable(format!(
                "the SMTP server at {} closed the connection",
                self.place
            )),
            Failure::TimedOut => SendError::Unreachable(format!(
                "the SMTP server at {} did not answer within {} seconds",
                self.place,
                self.timeout.as_secs()
            )),
            Failure::Garbled => SendError::Refused(format!(
                "{} does not answer as an SMTP server: check the host and port",
                self.place
            )),
        }
    }

    pub(super) async fn quit(&mut self) {
        let _ = self.command(&Quit.to_string()).await;
    }
}

/// TLS over `stream`, for implicit TLS or after STARTTLS, within the deadline.
pub(super) async fn tls(
    server: &SmtpServer,
    stream: Box<dyn Io>,
) -> Result<tokio_rustls::client::TlsStream<Box<dyn Io>>, SendError> {
    let config = crate::platform::net::tls_config()
        .ok_or_else(|| SendError::Unreachable("no TLS certificate store".into()))?;
    let name = rustls::pki_types::ServerName::try_from(server.host.clone())
        .map_err(|error| SendError::Invalid(format!("{}: {error}", server.host)))?;
    let handshake = tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, stream);
    tokio::time::timeout(server.timeout, handshake)
        .await
        .map_err(|_| {
            SendError::Unreachable(format!(
                "the TLS handshake with {} did not finish within {} seconds",
                server.place(),
                server.timeout.as_secs()
            ))
        })?
        .map_err(|error| SendError::Refused(format!("TLS with {}: {error}", server.place())))
}
