//! Handing composed messages to a sender's SMTP server. The session is ours, on lettre's command and authentication
//! types: lettre's own connection has no read deadline, knows no HELO, and keeps only the extensions it uses itself
//! (it needed a second EHLO to learn of PIPELINING, which some servers refuse). Here every network step (lookup,
//! connect, TLS, greeting, each command, each answer) has a deadline; the connection goes only to an address the
//! policy allows (`net::AddressPolicy`: no loopback or private hosts unless the operator lists them); the extensions
//! come from the one EHLO, and a server that answers EHLO with 5xx is spoken to with HELO; a server that closes
//! after a message gets a new connection for the rest. Errors say whether the sender refused the message, could not
//! take it now (it stays queued), or may have it (its answer never came: it is not sent again). What a server says
//! is repeated only when it is an SMTP reply, cut short; anything else is never echoed.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::commands::{Auth, Data, Ehlo, Mail, Quit, Rcpt, Rset, Starttls};
use lettre::transport::smtp::extension::{ClientId, MailBodyParameter, MailParameter};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use crate::Settings;
use crate::compose::Composed;
use crate::config::Secret;
use crate::mime;
use crate::net::{AddressPolicy, NetError};
use crate::outbound::EmailConfig;
use crate::security::decrypt_secret;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The server answered and refused (bad address, authentication, policy): retrying will not help.
    #[error("{0}")]
    Refused(String),
    /// The server could not be reached, deferred, or dropped the connection before taking the message: it may be
    /// retried.
    #[error("{0}")]
    Unreachable(String),
    /// The message itself cannot be built (an address that does not parse).
    #[error("{0}")]
    Invalid(String),
    /// The message was handed over but its answer never came: the server may have it, so it is not sent again.
    #[error("{0}")]
    Uncertain(String),
}

/// The longest reply line read, and the most lines of one reply (RFC 5321 allows 512 bytes a line).
const MAX_LINE: u64 = 4096;
const MAX_REPLY_LINES: usize = 100;
/// How much of a server's reply text an error repeats.
const REPLY_TEXT: usize = 200;

/// The SMTP settings of a configuration, with the password decrypted, and how it may be reached.
#[derive(Debug, Clone)]
pub struct SmtpServer {
    pub host: String,
    pub port: u16,
    pub security: String,
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
            security: config
                .smtp_security
                .clone()
                .unwrap_or_else(|| "starttls".into()),
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

    fn place(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// How one exchange with the server went wrong.
#[derive(Debug)]
enum Failure {
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
struct Reply {
    code: u16,
    lines: Vec<String>,
}

impl Reply {
    fn is_positive(&self) -> bool {
        self.code < 400
    }

    /// `421`: the server is closing the connection, as if it had closed it.
    fn is_closing(&self) -> bool {
        self.code == 421
    }

    /// The reply as an error may show it: code and first line, printable and short.
    fn shown(&self) -> String {
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
struct Extensions {
    pipelining: bool,
    starttls: bool,
    eight_bit_mime: bool,
    smtp_utf8: bool,
    auth: Vec<String>,
}

impl Extensions {
    fn of(reply: &Reply) -> Self {
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
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// An open SMTP connection, greeted and signed in.
struct Connection {
    stream: BufReader<Box<dyn Io>>,
    timeout: Duration,
    place: String,
    extensions: Extensions,
}

impl Connection {
    async fn open(server: &SmtpServer) -> Result<Self, SendError> {
        let tcp = server
            .policy
            .connect(&server.host, server.port, server.timeout)
            .await
            .map_err(|error| match error {
                NetError::Blocked(_) => SendError::Refused(format!(
                    "{error}; the instance's operator can allow it in sending.allow_hosts"
                )),
                other => {
                    SendError::Unreachable(format!("the SMTP server could not be reached: {other}"))
                }
            })?;
        let stream: Box<dyn Io> = if server.security == "tls" {
            Box::new(tls(server, Box::new(tcp)).await?)
        } else {
            Box::new(tcp)
        };
        let mut connection = Self {
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
        if server.security == "starttls" {
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
    async fn hello(&mut self) -> Result<(), SendError> {
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
    async fn authenticate(&mut self, credentials: Credentials) -> Result<(), SendError> {
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
        if reply.code == 235 {
            Ok(())
        } else {
            Err(SendError::Refused(format!(
                "the SMTP server refused the sign-in: {}",
                reply.shown()
            )))
        }
    }

    /// Writes `text` and reads the answer; a 4xx or 5xx answer is a failure.
    async fn command(&mut self, text: &str) -> Result<Reply, Failure> {
        self.write(text).await?;
        let reply = self.read_reply().await?;
        if reply.is_positive() {
            Ok(reply)
        } else {
            Err(Failure::Reply(reply))
        }
    }

    /// `command`, with its failure in words.
    async fn expect(&mut self, text: &str) -> Result<Reply, SendError> {
        self.command(text)
            .await
            .map_err(|failure| self.error(failure))
    }

    async fn write(&mut self, text: &str) -> Result<(), Failure> {
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
    async fn read_reply(&mut self) -> Result<Reply, Failure> {
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
    fn error(&self, failure: Failure) -> SendError {
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

    async fn quit(&mut self) {
        let _ = self.command(&Quit.to_string()).await;
    }
}

/// TLS over `stream`, for implicit TLS or after STARTTLS, within the deadline.
async fn tls(
    server: &SmtpServer,
    stream: Box<dyn Io>,
) -> Result<tokio_rustls::client::TlsStream<Box<dyn Io>>, SendError> {
    let config = crate::crawler::tls_config()
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

/// One SMTP connection kept open for a batch of messages (TCP_NODELAY: without it, Nagle's algorithm and the
/// server's delayed ACK hold every message's last segment for about 40 ms). No NOOP is sent between messages; a
/// broken connection is opened again. When the server offers PIPELINING (RFC 2920), each message costs one write and
/// one round trip: its content goes out together with the next message's MAIL, RCPT and DATA.
pub struct SmtpSession {
    server: SmtpServer,
    connection: Option<Connection>,
}

/// The messages of a run, each built for the wire when the run reaches it (a run may end early).
struct Wires<'a> {
    messages: &'a [Composed],
    extensions: Extensions,
    built: Vec<Result<Wire, SendError>>,
}

impl Wires<'_> {
    fn get(&mut self, index: usize) -> Option<&Result<Wire, SendError>> {
        while self.built.len() <= index && self.built.len() < self.messages.len() {
            let composed = &self.messages[self.built.len()];
            self.built.push(Wire::of(composed, &self.extensions));
        }
        self.built.get(index)
    }
}

/// A message ready for the wire: its envelope commands and its dot-stuffed content with the final dot.
struct Wire {
    commands: String,
    content: String,
}

/// How a run over one connection ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// Every message has its result, or the worker is stopping: the connection stays open.
    Done,
    /// A deferral or a broken exchange: the connection is dropped and the rest waits.
    Broken,
    /// The server closed the connection (or said 421) before taking the next message, which can go over a new one.
    Closed,
}

impl SmtpSession {
    pub fn new(server: SmtpServer) -> Self {
        Self {
            server,
            connection: None,
        }
    }

    /// Sends messages in order (connecting when needed). Returns one result per message attempted, in order. It
    /// stops after the first message the server deferred (4xx) or the connection failed on, or before the next
    /// message once `stopping` says so: nothing after the last result was handed over, so the rest can wait in the
    /// queue. A message the server refused (5xx) or that cannot be built fails alone. A server that closes the
    /// connection between messages gets a new one, as long as each connection takes a message.
    pub async fn send_all(
        &mut self,
        messages: &[Composed],
        stopping: &(dyn Fn() -> bool + Sync),
    ) -> Vec<Result<(), SendError>> {
        let mut results = Vec::with_capacity(messages.len());
        // Whether the last connection closed before taking anything: a second such close ends the run.
        let mut closed_idle = false;
        while results.len() < messages.len() {
            if self.connection.is_none() {
                match Connection::open(&self.server).await {
                    Ok(connection) => self.connection = Some(connection),
                    // Nothing can be handed over: a refusal (authentication, TLS, policy) fails every message, an
                    // unreachable server the first, which stops the rest.
                    Err(error @ SendError::Unreachable(_)) => {
                        results.push(Err(error));
                        return results;
                    }
                    Err(error) => {
                        results.resize(messages.len(), Err(error));
                        return results;
                    }
                }
            }
            let connection = self.connection.as_mut().expect("connected above");
            let start = results.len();
            let mut wires = Wires {
                messages: &messages[start..],
                extensions: connection.extensions.clone(),
                built: Vec::new(),
            };
            let (run, end) = if connection.extensions.pipelining {
                send_pipelined(connection, &mut wires, stopping).await
            } else {
                send_one_by_one(connection, &mut wires, stopping).await
            };
            let took_one = run.iter().any(Result::is_ok);
            results.extend(run);
            match end {
                End::Done => return results,
                End::Broken => {
                    self.connection = None;
                    return results;
                }
                End::Closed => {
                    self.connection = None;
                    if !took_one && closed_idle {
                        results.push(Err(SendError::Unreachable(format!(
                            "the SMTP server at {} closes the connection before taking a message",
                            self.server.place()
                        ))));
                        return results;
                    }
                    closed_idle = !took_one;
                }
            }
        }
        results
    }

    /// Says goodbye to the server.
    pub async fn close(&mut self) {
        if let Some(mut connection) = self.connection.take() {
            connection.quit().await;
        }
    }
}

impl Wire {
    fn of(composed: &Composed, extensions: &Extensions) -> Result<Self, SendError> {
        let rendered = mime::render(composed, chrono::Utc::now())?;
        let mut parameters = Vec::new();
        if [&rendered.from, &rendered.to]
            .iter()
            .any(|address| !AsRef::<str>::as_ref(address).is_ascii())
        {
            if !extensions.smtp_utf8 {
                return Err(SendError::Invalid(
                    "the address has characters the SMTP server does not accept (no SMTPUTF8)"
                        .into(),
                ));
            }
            parameters.push(MailParameter::SmtpUtfEight);
        }
        if !rendered.text.is_ascii() {
            if !extensions.eight_bit_mime {
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

/// The server's answer to a message's content: the message is taken, refused, deferred, or its fate unknown.
fn content_outcome(
    connection: &Connection,
    answer: Result<Reply, Failure>,
) -> (Result<(), SendError>, bool) {
    match answer {
        Ok(reply) if reply.is_positive() => (Ok(()), true),
        Ok(reply) if reply.code >= 500 => (Err(connection.error(Failure::Reply(reply))), true),
        Ok(reply) => (Err(connection.error(Failure::Reply(reply))), false),
        Err(failure) => {
            let reason = match connection.error(failure) {
                SendError::Unreachable(reason) | SendError::Refused(reason) => reason,
                other => other.to_string(),
            };
            (
                Err(SendError::Uncertain(format!(
                    "The message was handed over but the server's answer never came ({reason}); it is not sent \
                     again in case it was delivered"
                ))),
                false,
            )
        }
    }
}

/// One write per message: the previous message's content and this message's MAIL, RCPT and DATA go together
/// (RFC 2920 allows content as the first "command" of a group and DATA as its last).
async fn send_pipelined(
    connection: &mut Connection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
) -> (Vec<Result<(), SendError>>, End) {
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
            return (results, End::Done);
        }
        let written = connection.write(&buffer).await;
        buffer.clear();
        if std::mem::take(&mut awaiting_content) {
            let answer = match written {
                Ok(()) => connection.read_reply().await,
                Err(failure) => Err(failure),
            };
            let (outcome, usable) = content_outcome(connection, answer);
            results.push(outcome);
            // Deferred or cut off: the next message may be waiting for its content, and dropping the connection
            // abandons it.
            if !usable {
                return (results, End::Broken);
            }
        } else if written.is_err() {
            // Only this message's envelope was in the write: the server is gone before taking it.
            return (results, End::Closed);
        }
        let Some(wire) = next else {
            if stopping() {
                return (results, End::Done);
            }
            continue;
        };
        let mut refusal = None;
        let mut data_accepted = false;
        for command in 0..3 {
            match connection.read_reply().await {
                Ok(reply) if reply.is_closing() && command == 0 => return (results, End::Closed),
                Ok(reply) if reply.is_positive() => data_accepted = command == 2,
                Ok(reply) if reply.code >= 500 => {
                    refusal.get_or_insert(connection.error(Failure::Reply(reply)));
                }
                Err(Failure::Closed) if command == 0 => return (results, End::Closed),
                Ok(reply) => {
                    results.push(Err(connection.error(Failure::Reply(reply))));
                    return (results, End::Broken);
                }
                Err(failure) => {
                    results.push(Err(connection.error(failure)));
                    return (results, End::Broken);
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
                    return (results, End::Broken);
                }
            }
        }
        index += 1;
    }
}

/// Without PIPELINING: each command waits for its answer.
async fn send_one_by_one(
    connection: &mut Connection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
) -> (Vec<Result<(), SendError>>, End) {
    let mut results = Vec::with_capacity(wires.messages.len());
    for index in 0..wires.messages.len() {
        if stopping() {
            break;
        }
        let (commands, content) = match wires.get(index).expect("within the run") {
            Ok(wire) => (wire.commands.clone(), wire.content.clone()),
            Err(error) => {
                results.push(Err(error.clone()));
                continue;
            }
        };
        let mut refused = None;
        for (step, command) in commands.split_inclusive("\r\n").enumerate() {
            match connection.command(command).await {
                Ok(_) => {}
                Err(Failure::Closed) if step == 0 => return (results, End::Closed),
                Err(Failure::Reply(reply)) if step == 0 && reply.is_closing() => {
                    return (results, End::Closed);
                }
                Err(Failure::Reply(reply)) if reply.code >= 500 => {
                    refused = Some(connection.error(Failure::Reply(reply)));
                    break;
                }
                Err(failure) => {
                    results.push(Err(connection.error(failure)));
                    return (results, End::Broken);
                }
            }
        }
        if let Some(error) = refused {
            // A refused MAIL or RCPT leaves a transaction open: start clean for the next message.
            results.push(Err(error));
            if connection.command(&Rset.to_string()).await.is_err() {
                return (results, End::Broken);
            }
            continue;
        }
        let answer = match connection.write(&content).await {
            Ok(()) => connection.read_reply().await,
            Err(failure) => Err(failure),
        };
        let (outcome, usable) = content_outcome(connection, answer);
        results.push(outcome);
        if !usable {
            return (results, End::Broken);
        }
    }
    (results, End::Done)
}
