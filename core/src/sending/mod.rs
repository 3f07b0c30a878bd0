//! Sending: the user's senders, message rows written before any provider is called and claimed under the limits,
//! the composed email, its RFC 5322 text, and the providers that carry it (SMTP, the Gmail API, SendGrid, the
//! local outbox).

pub mod batch;
pub mod compose;
pub mod control;
pub mod domain_auth;
pub mod handover;
pub mod health;
pub mod launch;
pub mod launch_check;
pub mod links;
pub mod mail_apis;
pub mod messages;
pub mod mime;
pub mod outgoing;
pub mod pacing;
pub mod pool;
pub mod progress;
pub mod recovery;
pub mod sender;
pub mod senders;
pub mod sequence;
pub mod sequence_timing;
pub mod slots;
pub mod smtp;
pub mod spam;
pub mod steps;
pub mod suppression;
pub mod test_sends;
pub mod variants;
pub mod window;

use crate::sending::handover::HandOverError;

crate::capability_store!(
    /// The sending capability's reads and writes: `db.sending()`.
    SendingStore,
    sending
);

/// What a sender said about a message it did not accept.
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
    /// The sender itself stopped working for good (a revoked Gmail grant, a refused SendGrid key): it is turned
    /// off with this reason.
    #[error("{0}")]
    Revoked(String),
    /// The message was handed over but its answer never came: the server may have it, so it is not sent again.
    #[error("{0}")]
    Uncertain(String),
    /// The sender itself could not be used: its server could not be reached, or refused the connection or the
    /// sign-in. Nothing was handed over; the message waits (in a pool, for another sender), and the sender's
    /// failures in a row grow (`health`).
    #[error("{reason}")]
    SenderDown {
        reason: String,
        failure: SenderFailure,
    },
}

/// How a sender could not be used at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SenderFailure {
    /// Its server could not be reached (connection, greeting, deadline).
    Unreachable,
    /// Its server refused the connection or the sign-in (TLS, authentication, the network policy).
    Refused,
}

impl SendError {
    /// Its name in the sending metrics (`telemetry::SEND_OUTCOMES`).
    pub fn kind(&self) -> &'static str {
        match self {
            SendError::Refused(_) => "refused",
            SendError::Unreachable(_) => "unreachable",
            SendError::Invalid(_) => "invalid",
            SendError::Revoked(_) => "revoked",
            SendError::Uncertain(_) => "uncertain",
            SendError::SenderDown { .. } => "sender_down",
        }
    }
}

/// Told, before each message's content goes to its sender, which message of the run it is and on which connection,
/// and which messages of the run since it was last told the sender did not take (refused, or never built). The
/// batch records it (`handover::HandOverLog`), so that after a crash a message never tried is told apart from one
/// under way. It may record a window of the connection's next messages at once (`sending.handover_window`): then up
/// to that many per connection are in doubt after a crash, never sent twice. An error keeps the content back: the
/// message was not handed over.
pub trait Handoff: Send {
    fn handing(
        &mut self,
        index: usize,
        connection: u64,
        not_taken: Vec<usize>,
    ) -> impl std::future::Future<Output = Result<(), HandOverError>> + Send;
}

/// Records nothing: the sender check, and tests of the wire.
pub struct NoRecord;

impl Handoff for NoRecord {
    async fn handing(&mut self, _: usize, _: u64, _: Vec<usize>) -> Result<(), HandOverError> {
        Ok(())
    }
}

/// A number for a connection to a sender, unique in this process (with the lease, unique everywhere).
pub fn next_connection_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl From<mime::MessageError> for SendError {
    fn from(error: mime::MessageError) -> Self {
        SendError::Invalid(error.to_string())
    }
}
