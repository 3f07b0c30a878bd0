//! Sending: the user's senders, message rows written before any provider is called and claimed under the limits,
//! the composed email, its RFC 5322 text, and the providers that carry it (SMTP, the Gmail API, SendGrid, the
//! local outbox).

pub mod batch;
pub mod compose;
pub mod control;
pub mod domain_auth;
pub mod launch;
pub mod launch_check;
pub mod mail_apis;
pub mod messages;
pub mod mime;
pub mod pacing;
pub mod sender;
pub mod senders;
pub mod slots;
pub mod smtp;
pub mod window;

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
        }
    }
}

impl From<mime::MessageError> for SendError {
    fn from(error: mime::MessageError) -> Self {
        SendError::Invalid(error.to_string())
    }
}
