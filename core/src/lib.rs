//! Outreach core: every capability of the product, each in its own folder with its types, rules and its own store
//! (`db.sending()`, `db.campaigns()`, ...: the capability's reads and writes, so a call names its owner). Only this
//! crate talks to the database and to providers; `api`, `worker` and `scheduler` build on it.
//!
//! - `platform`: configuration, clock, secrets, size limits, network policy, DNS, the database, SQL and the queue;
//! - `accounts`: users, sessions, invites, plans and the monthly quota;
//! - `admin`: the operator's actions (console and command line) with their audit log, and listings across users;
//! - `automations`: daily discover-and-send runs, Run Now and their records;
//! - `discovery`: businesses, searches and imports, the search sources, the offline directory, website enrichment;
//! - `campaigns`: campaigns, templates with their follow-ups, and education files;
//! - `writing`: the AI writer and its generation requests;
//! - `sending`: senders, message rows and claims, composing, the message format, SMTP and the HTTP mail APIs;
//! - `followups`: the follow-up sequences that go out after a first email, and when each goes;
//! - `inbox`: every conversation with a prospect who answered, read, answered and labelled in one place;
//! - `inbound`: mail that comes back (replies, bounces, automatic answers) and the feedback it applies;
//! - `responses`: replies read by AI, answers sent by themselves or after approval, the classifier's evaluation;
//! - `tracking`: signed links, open and click events, the suppression list, analytics and contacts.

pub mod accounts;
pub mod admin;
pub mod automations;
pub mod campaigns;
pub mod discovery;
pub mod followups;
pub mod inbound;
pub mod inbox;
pub mod platform;
pub mod responses;
pub mod sending;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tracking;
pub mod writing;

use std::sync::Arc;

pub use platform::clock::SharedClock;
pub use platform::config::Settings;
pub use platform::db::Db;
pub use platform::queue::Queue;

/// What every role (api, worker, scheduler) works with. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Context {
    pub db: Db,
    pub queue: Queue,
    pub clock: SharedClock,
    pub settings: Arc<Settings>,
}

impl Context {
    pub fn new(db: Db, settings: Settings, clock: SharedClock) -> Self {
        let queue = Queue::new(db.clone(), settings.queue.clone());
        Self {
            db,
            queue,
            clock,
            settings: Arc::new(settings),
        }
    }

    /// This context over another connection to the same database (see `Db::for_this_runtime`).
    pub fn with_db(&self, db: Db) -> Self {
        Self {
            queue: Queue::new(db.clone(), self.settings.queue.clone()),
            db,
            clock: self.clock.clone(),
            settings: self.settings.clone(),
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Queues the website lookup (its email pending meanwhile, when it has none); `key` makes a repeat a no-op.
    pub async fn request_enrichment(
        &self,
        business_id: i64,
        key: &str,
    ) -> Result<(), platform::queue::QueueError> {
        self.request_lookup(platform::jobs::EnrichBusiness::of(business_id), key)
            .await
    }

    /// Like `request_enrichment`, for a lookup that also writes the icebreaker anew (in `language`, else the site's).
    pub async fn request_icebreaker(
        &self,
        business_id: i64,
        language: Option<String>,
        key: &str,
    ) -> Result<(), platform::queue::QueueError> {
        let job = platform::jobs::EnrichBusiness {
            business_id,
            rewrite_icebreaker: true,
            language,
        };
        self.request_lookup(job, key).await
    }

    async fn request_lookup(
        &self,
        job: platform::jobs::EnrichBusiness,
        key: &str,
    ) -> Result<(), platform::queue::QueueError> {
        self.db
            .discovery()
            .mark_email_pending(job.business_id)
            .await?;
        self.queue.enqueue(job, Some(key)).await?;
        Ok(())
    }
}
