//! Handing composed messages to a sender's SMTP server. The session is ours, on lettre's command and authentication
//! types: lettre's own connection has no read deadline, knows no HELO, and keeps only the extensions it uses itself
//! (it needed a second EHLO to learn of PIPELINING, which some servers refuse). Here every network step (lookup,
//! connect, TLS, greeting, each command, each answer) has a deadline; the connection goes only to an address the
//! policy allows (`net::AddressPolicy`: no loopback or private hosts unless the operator lists them); the extensions
//! come from the one EHLO, and a server that answers EHLO with 5xx is spoken to with HELO; a server that closes
//! after a message gets a new connection for the rest. Errors say whether the sender refused the message, could not
//! take it now (it stays queued), or may have it (its answer never came: it is not sent again). What a server says
//! is repeated only when it is an SMTP reply, cut short; anything else is never echoed.

mod connection;

use std::fmt::Write as _;

use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{MailBodyParameter, MailParameter};

use crate::sending::compose::Composed;
use crate::sending::mime;
use crate::sending::{Handoff, NoRecord, SendError, SenderFailure};

pub use connection::SmtpServer;
use connection::{Connection, Extensions, Failure, Reply};

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
        self.send_recorded(messages, stopping, &mut NoRecord).await
    }

    /// `send_all`, telling `handoff` before each message's content goes out (see `sending::Handoff`).
    pub async fn send_recorded(
        &mut self,
        messages: &[Composed],
        stopping: &(dyn Fn() -> bool + Sync),
        handoff: &mut impl Handoff,
    ) -> Vec<Result<(), SendError>> {
        let mut results = Vec::with_capacity(messages.len());
        // Whether the last connection closed before taking anything: a second such close ends the run.
        let mut closed_idle = false;
        while results.len() < messages.len() {
            if self.connection.is_none() {
                match Connection::open(&self.server).await {
                    Ok(connection) => self.connection = Some(connection),
                    // Nothing can be handed over: the sender is down. A refusal (authentication, TLS, policy) is
                    // the answer for every message, an unreachable server for the first, which stops the rest.
                    Err(SendError::Unreachable(reason)) => {
                        results.push(Err(SendError::SenderDown {
                            reason,
                            failure: SenderFailure::Unreachable,
                        }));
                        return results;
                    }
                    Err(SendError::Refused(reason)) => {
                        let down = SendError::SenderDown {
                            reason,
                            failure: SenderFailure::Refused,
                        };
                        results.resize(messages.len(), Err(down));
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
            let mut handoff = Offset {
                inner: &mut *handoff,
                start,
            };
            let (run, end) = if connection.extensions.pipelining {
                send_pipelined(connection, &mut wires, stopping, &mut handoff).await
            } else {
                send_one_by_one(connection, &mut wires, stopping, &mut handoff).await
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

/// A run's hand-overs numbered within the whole `send_recorded` call.
struct Offset<'a, H> {
    inner: &'a mut H,
    start: usize,
}

impl<H: Handoff> Offset<'_, H> {
    /// Tells the hand-over of the run's message `index`, with the messages of `results` since `reported` the server
    /// did not take; an error ends the run before its content goes.
    async fn handing(
        &mut self,
        connection: u64,
        index: usize,
        results: &[Result<(), SendError>],
        reported: &mut usize,
    ) -> Result<(), SendError> {
        let start = self.start;
        let not_taken = (*reported..results.len())
            .filter(|&at| results[at].is_err())
            .map(|at| start + at)
            .collect();
        *reported = results.len();
        self.inner
            .handing(start + index, connection, not_taken)
            .await
            .map_err(|reason| {
                SendError::Unreachable(format!("the hand-over could not be recorded: {reason}"))
            })
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
        // The three commands written into one string (every message of a campaign comes through here).
        let mut commands = String::new();
        let _ = write!(
            commands,
            "{}{}{}",
            Mail::new(Some(rendered.from), parameters),
            Rcpt::new(rendered.to, Vec::new()),
            Data
        );
        Ok(Self {
            commands,
            content: dot_stuffed(&rendered.text),
        })
    }
}

/// The message content as DATA carries it: a line that starts with a dot gets a second one (RFC 5321 4.5.2),
/// and the content ends with the lone dot. The content goes in whole between the dots added; line ends are found
/// by their '\n' (a byte search), not by splitting at each "\r\n" (a substring search a line, a tenth of the
/// worker's composing and rendering: docs/benchmarks.md, Sending).
fn dot_stuffed(content: &str) -> String {
    let mut wire = String::with_capacity(content.len() + 16);
    let bytes = content.as_bytes();
    // Where the content not yet copied starts; a line starts at 0 and after each CRLF.
    let mut copied = 0;
    if content.starts_with('.') {
        wire.push('.');
    }
    for (at, _) in content.match_indices('\n') {
        if at > 0 && bytes[at - 1] == b'\r' && bytes.get(at + 1) == Some(&b'.') {
            wire.push_str(&content[copied..=at]);
            wire.push('.');
            copied = at + 1;
        }
    }
    wire.push_str(&content[copied..]);
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
async fn send_pipelined<H: Handoff>(
    connection: &mut Connection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
    handoff: &mut Offset<'_, H>,
) -> (Vec<Result<(), SendError>>, End) {
    let mut results = Vec::with_capacity(wires.messages.len());
    let mut buffer = String::new();
    // The last message's content is written and its answer not read yet.
    let mut awaiting_content = false;
    // The results before this one were told with a hand-over.
    let mut reported = 0;
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
                // On record before the content goes: a crash from here on leaves this message in doubt.
                if let Err(error) = handoff
                    .handing(connection.id, index, &results, &mut reported)
                    .await
                {
                    results.push(Err(error));
                    return (results, End::Broken);
                }
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
async fn send_one_by_one<H: Handoff>(
    connection: &mut Connection,
    wires: &mut Wires<'_>,
    stopping: &(dyn Fn() -> bool + Sync),
    handoff: &mut Offset<'_, H>,
) -> (Vec<Result<(), SendError>>, End) {
    let mut results = Vec::with_capacity(wires.messages.len());
    let mut reported = 0;
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
        if let Err(error) = handoff
            .handing(connection.id, index, &results, &mut reported)
            .await
        {
            results.push(Err(error));
            return (results, End::Broken);
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

#[cfg(test)]
mod tests {
    use super::dot_stuffed;

    #[test]
    fn a_line_that_starts_with_a_dot_gets_a_second_one_and_the_content_ends_with_the_lone_dot() {
        assert_eq!(dot_stuffed("Hi\r\n"), "Hi\r\n.\r\n");
        assert_eq!(dot_stuffed("Hi"), "Hi\r\n.\r\n");
        assert_eq!(dot_stuffed(""), "\r\n.\r\n");
        assert_eq!(dot_stuffed(".first\r\n"), "..first\r\n.\r\n");
        assert_eq!(
            dot_stuffed("a\r\n.\r\n..b\r\nc.d\r\n.e"),
            "a\r\n..\r\n...b\r\nc.d\r\n..e\r\n.\r\n"
        );
        // Only CRLF ends a line: a dot after a bare LF or CR is inside a line.
        assert_eq!(dot_stuffed("a\n.b\r.c\r\n"), "a\n.b\r.c\r\n.\r\n");
        // A dot that ends the content on a line of its own is doubled, and the line then ended.
        assert_eq!(dot_stuffed("a\r\n."), "a\r\n..\r\n.\r\n");
    }
}
