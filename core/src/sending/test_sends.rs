//! The rules of test sends, so they are no side door around a launch's: a test to someone else carries the footer
//! a launch requires (so the user needs a postal address, as for a launch through a real sender), and each user
//! has a rate limit of their own for test messages (a few a minute, a few dozen a day), exact within a process.

use std::sync::LazyLock;

use crate::Context;
use crate::accounts::{User, normalize_email};
use crate::platform::clock::DAY_MS;
use crate::platform::jobs::Branding;
use crate::platform::queue::QueueError;
use crate::sending::launch::{TestMessage, queue_tests};
use crate::sending::senders::{EmailConfig, Provider};

/// Test messages one user may write in a minute, and in a day.
pub const PER_MINUTE: i64 = 10;
pub const PER_DAY: i64 = 50;

/// The launch's wording: anti-spam laws want the footer in every marketing email, and a test to a stranger is one.
pub const NO_POSTAL_ADDRESS: &str = "Add your postal address in Email Settings: anti-spam laws require it in the \
     footer of every email sent to someone else, test emails included.";

/// Why test messages were not written.
#[derive(Debug, thiserror::Error)]
pub enum TestSendError {
    /// The user has no postal address and the test goes to someone else through a real sender.
    #[error("{NO_POSTAL_ADDRESS}")]
    NoPostalAddress,
    /// Over the rate limit; the message says which and when to try again.
    #[error("{0}")]
    TooMany(String),
    #[error(transparent)]
    Queue(#[from] QueueError),
}

impl From<crate::platform::db::StoreError> for TestSendError {
    fn from(error: crate::platform::db::StoreError) -> Self {
        Self::Queue(error.into())
    }
}

/// Writes and queues test messages to `to` through `config` (None: the local outbox), under the rules above.
pub async fn queue_test_sends(
    ctx: &Context,
    user: &User,
    config: Option<&EmailConfig>,
    to: &str,
    items: &[TestMessage],
    branding: Option<&Branding>,
) -> Result<Vec<i64>, TestSendError> {
    let leaves_machine = config.is_some_and(|config| config.provider != Provider::Outbox);
    let has_postal_address = user
        .postal_address
        .as_deref()
        .is_some_and(|address| !address.trim().is_empty());
    if leaves_machine && !has_postal_address && !is_own_address(ctx, user, to).await? {
        return Err(TestSendError::NoPostalAddress);
    }
    // One count and write at a time in this process, so parallel requests cannot all pass the same count.
    static WRITING: LazyLock<tokio::sync::Mutex<()>> = LazyLock::new(Default::default);
    let _writing = WRITING.lock().await;
    let now = ctx.now_ms();
    let wanted = items.len() as i64;
    let sending = ctx.db.sending();
    if sending.tests_since(user.id, now - 60_000).await? + wanted > PER_MINUTE {
        return Err(TestSendError::TooMany(format!(
            "Too many test emails: at most {PER_MINUTE} a minute. Try again in a minute."
        )));
    }
    if sending.tests_since(user.id, now - DAY_MS).await? + wanted > PER_DAY {
        return Err(TestSendError::TooMany(format!(
            "Too many test emails: at most {PER_DAY} in 24 hours. Try again tomorrow."
        )));
    }
    Ok(queue_tests(
        ctx,
        user.id,
        config.map(|config| config.id),
        to,
        items,
        branding,
    )
    .await?)
}

/// Whether `to` is the user's own: their account's address or one of their senders'.
async fn is_own_address(ctx: &Context, user: &User, to: &str) -> Result<bool, TestSendError> {
    let to = normalize_email(to);
    if normalize_email(&user.email) == to {
        return Ok(true);
    }
    let senders = ctx.db.sending().list_email_configs(user.id).await?;
    Ok(senders
        .iter()
        .any(|sender| normalize_email(&sender.send_from) == to))
}
