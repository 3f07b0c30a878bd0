//! Reading an SMTP sender's mailbox over IMAP (RFC 3501) for replies, automatic answers and bounces: log in (plain,
//! STARTTLS or implicit TLS), select INBOX, and fetch the messages after the last UID already read, without marking
//! them seen (`BODY.PEEK[]`). Reading starts where INBOX ended when the settings were saved. A changed UIDVALIDITY
//! means the old UIDs mean nothing: reading starts again from a date window rather than from UID 1, so an old
//! mailbox is not read whole.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::platform::config::Secret;
use crate::platform::net::{AddressPolicy, NetError, Security};
use crate::sending::senders::Mark;

/// A session (connect, log in, read) may take this many network steps' deadlines in all.
const SESSION_STEPS: u32 = 4;

/// A mailbox to read.
#[derive(Debug, Clone)]
pub struct ImapServer {
    pub host: String,
    pub port: u16,
    pub security: Security,
    pub username: String,
    pub password: Secret,
    /// Which addresses may be reached (no loopback or private hosts unless the operator lists them).
    pub policy: AddressPolicy,
    /// A network step's deadline; a whole session gets a few of them.
    pub timeout: Duration,
}

/// One message read, with its UID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    pub uid: u32,
    pub raw: Vec<u8>,
}

/// What went wrong, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImapError {
    #[error("the IMAP server could not be reached: {0}")]
    Unreachable(String),
    #[error("the IMAP server refused the login: {0}")]
    LoginRefused(String),
    #[error("the IMAP server answered unexpectedly: {0}")]
    Protocol(String),
    #[error("{0}")]
    Blocked(String),
}

impl From<async_imap::error::Error> for ImapError {
    fn from(error: async_imap::error::Error) -> Self {
        ImapError::Protocol(error.to_string())
    }
}

/// IMAP's `SEARCH SINCE` date: `21-Nov-2026`.
fn imap_date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%d-%b-%Y")
        .to_string()
}

impl ImapServer {
    /// Logs in and reads where INBOX ends now: the check made when a user saves IMAP settings, and the mark that
    /// reading replies starts from (mail already there is the user's own business).
    pub async fn check(&self) -> Result<Mark, ImapError> {
        self.with_session(|mut session| async move {
            let mailbox = session.select("INBOX").await?;
            let last_uid = match mailbox.uid_next {
                Some(next) => next.saturating_sub(1),
                None => session
                    .uid_search("ALL")
                    .await?
                    .into_iter()
                    .max()
                    .unwrap_or(0),
            };
            session.logout().await.ok();
            Ok(Mark {
                uid_validity: mailbox.uid_validity.unwrap_or(0),
                last_uid,
            })
        })
        .await
    }

    /// INBOX messages after `mark` (at most `limit`, oldest first), or, without a usable mark, those that arrived
    /// since `since_ms`. Returns the mailbox's mark before reading and the messages.
    pub async fn fetch_new(
        &self,
        mark: Option<Mark>,
        since_ms: i64,
        limit: usize,
    ) -> Result<(u32, Vec<Fetched>), ImapError> {
        self.with_session(|mut session| async move {
            let mailbox = session.select("INBOX").await?;
            let uid_validity = mailbox.uid_validity.unwrap_or(0);
            let query = match mark {
                Some(mark) if mark.uid_validity == uid_validity => {
                    format!("UID {}:*", mark.last_uid.saturating_add(1))
                }
                _ => format!("SINCE {}", imap_date(since_ms)),
            };
            let after = mark
                .filter(|mark| mark.uid_validity == uid_validity)
                .map_or(0, |mark| mark.last_uid);
            // `n:*` always matches the last message, even when it is older than n: keep only the new ones.
            let mut uids: Vec<u32> = session
                .uid_search(&query)
                .await?
                .into_iter()
                .filter(|uid| *uid > after)
                .collect();
            uids.sort_unstable();
            uids.truncate(limit);
            let mut messages = Vec::with_capacity(uids.len());
            if !uids.is_empty() {
                let set = uids
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",");
                let mut fetches = session.uid_fetch(&set, "(UID BODY.PEEK[])").await?;
                while let Some(fetch) = fetches.next().await {
                    let fetch = fetch?;
                    if let (Some(uid), Some(body)) = (fetch.uid, fetch.body()) {
                        messages.push(Fetched {
                            uid,
                            raw: body.to_vec(),
                        });
                    }
                }
            }
            session.logout().await.ok();
            messages.sort_by_key(|message| message.uid);
            Ok((uid_validity, messages))
        })
        .await
    }

    /// Connects with the configured security, logs in, and runs `work` on the session (all under one timeout).
    async fn with_session<R, F, Fut>(&self, work: F) -> Result<R, ImapError>
    where
        F: FnOnce(Session) -> Fut,
        Fut: std::future::Future<Output = Result<R, ImapError>>,
    {
        let run = async {
            let tcp = self
                .policy
                .connect(&self.host, self.port, self.timeout)
                .await
                .map_err(|error| match error {
                    NetError::Blocked(_) => ImapError::Blocked(format!(
                        "{error}; a server on a private or local network can be used only if the administrator allows it"
                    )),
                    other => ImapError::Unreachable(other.to_string()),
                })?;
            // Every read and write must make progress within one step's deadline.
            let tcp = Deadline::new(tcp, self.timeout);
            let stream: Box<dyn ImapStream> = match self.security {
                Security::Tls => Box::new(self.tls(tcp).await?),
                Security::StartTls => {
                    let mut client = async_imap::Client::new(tcp);
                    greeting(&mut client).await?;
                    client.run_command_and_check_ok("STARTTLS", None).await?;
                    Box::new(self.tls(client.into_inner()).await?)
                }
                Security::None => Box::new(tcp),
            };
            let mut client = async_imap::Client::new(Stream(stream));
            // After STARTTLS there is no second greeting.
            if self.security != Security::StartTls {
                greeting(&mut client).await?;
            }
            let session = client
                .login(&self.username, self.password.expose())
                .await
                .map_err(|(error, _)| match error {
                    // No answer, or the connection broke: not a refusal of the credentials.
                    async_imap::error::Error::Io(error) => {
                        ImapError::Unreachable(format!("signing in: {error}"))
                    }
                    other => ImapError::LoginRefused(other.to_string()),
                })?;
            work(session).await
        };
        let bound = self.timeout * SESSION_STEPS;
        tokio::time::timeout(bound, run).await.map_err(|_| {
            ImapError::Unreachable(format!(
                "{}:{} did not answer within {} seconds",
                self.host,
                self.port,
                bound.as_secs()
            ))
        })?
    }

    async fn tls(
        &self,
        tcp: Deadline<TcpStream>,
    ) -> Result<tokio_rustls::client::TlsStream<Deadline<TcpStream>>, ImapError> {
        let config = crate::platform::net::tls_config()
            .ok_or_else(|| ImapError::Unreachable("no TLS certificate store".into()))?;
        let name = rustls::pki_types::ServerName::try_from(self.host.clone())
            .map_err(|error| ImapError::Unreachable(format!("{}: {error}", self.host)))?;
        tokio_rustls::TlsConnector::from(Arc::new(config))
            .connect(name, tcp)
            .await
            .map_err(|error| ImapError::Unreachable(format!("TLS: {error}")))
    }
}

type Session = async_imap::Session<Stream>;

/// The server's first line must be OK (or PREAUTH).
async fn greeting<T>(client: &mut async_imap::Client<T>) -> Result<(), ImapError>
where
    T: AsyncRead + AsyncWrite + Unpin + fmt::Debug + Send,
{
    // What another kind of server says is not repeated back to the user.
    client
        .read_response()
        .await
        .map_err(|_| ImapError::Unreachable("it does not answer as an IMAP server".into()))?
        .ok_or_else(|| ImapError::Unreachable("the server closed the connection".into()))?;
    Ok(())
}

/// A plain or TLS connection behind one type.
trait ImapStream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> ImapStream for T {}

struct Stream(Box<dyn ImapStream>);

impl fmt::Debug for Stream {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("ImapStream")
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
        buffer: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut *self.0).poll_read(context, buffer)
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
        data: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut *self.0).poll_write(context, data)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut *self.0).poll_flush(context)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut *self.0).poll_shutdown(context)
    }
}

/// A connection whose every read and write must make progress within `step`: a server that stops answering fails
/// that step, as every other network step does, instead of holding the session until its overall bound.
struct Deadline<T> {
    inner: T,
    step: Duration,
    reading: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    writing: Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
}

impl<T> fmt::Debug for Deadline<T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("Deadline")
    }
}

impl<T> Deadline<T> {
    fn new(inner: T, step: Duration) -> Self {
        Self {
            inner,
            step,
            reading: None,
            writing: None,
        }
    }
}

/// `Pending` until `timer` (started now if it is not running) runs out, then a time-out error.
fn expire<R>(
    timer: &mut Option<std::pin::Pin<Box<tokio::time::Sleep>>>,
    step: Duration,
    context: &mut std::task::Context<'_>,
) -> std::task::Poll<std::io::Result<R>> {
    let sleep = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(step)));
    match sleep.as_mut().poll(context) {
        std::task::Poll::Ready(()) => {
            *timer = None;
            std::task::Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer within {} seconds", step.as_secs_f64()),
            )))
        }
        std::task::Poll::Pending => std::task::Poll::Pending,
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Deadline<T> {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
        buffer: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_read(context, buffer) {
            std::task::Poll::Pending => expire(&mut this.reading, this.step, context),
            ready => {
                this.reading = None;
                ready
            }
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Deadline<T> {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
        data: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_write(context, data) {
            std::task::Poll::Pending => expire(&mut this.writing, this.step, context),
            ready => {
                this.writing = None;
                ready
            }
        }
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match std::pin::Pin::new(&mut this.inner).poll_flush(context) {
            std::task::Poll::Pending => expire(&mut this.writing, this.step, context),
            ready => {
                this.writing = None;
                ready
            }
        }
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_shutdown(context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_dates_are_imap_dates() {
        assert_eq!(imap_date(0), "01-Jan-1970");
        assert_eq!(imap_date(1_795_219_200_000), "21-Nov-2026");
    }
}
