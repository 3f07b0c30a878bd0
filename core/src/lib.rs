//! Outreach core: configuration, domain rules, database access, job payloads and the queue.
//! Only this crate talks to the database and to providers; `api`, `worker` and `scheduler` build on it.

pub mod accounts;
pub mod ai;
pub mod analytics;
pub mod businesses;
pub mod campaigns;
pub mod clock;
pub mod compose;
pub mod config;
pub mod contacts;
pub mod crawler;
pub mod db;
pub mod directory;
pub mod dns;
pub mod domain_auth;
pub mod education;
pub mod enrich;
pub mod events;
pub mod feedback;
pub mod gazetteer;
pub mod imap;
pub mod inbound;
pub mod jobs;
pub mod limits;
pub mod links;
pub mod mail_apis;
pub mod mime;
pub mod net;

pub mod outbound;
pub mod queries;
pub mod queue;
pub mod replies;
pub mod security;
pub mod sendgrid_webhook;
pub mod sources;
pub mod store;
pub mod templates;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod transport;

use std::sync::Arc;

pub use clock::SharedClock;
pub use config::Settings;
pub use db::Db;
pub use queue::Queue;

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

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Marks a business's email as pending and queues the website lookup; `key` makes a repeat a no-op.
    pub async fn request_enrichment(
        &self,
        business_id: i64,
        key: &str,
    ) -> Result<(), queue::QueueError> {
        self.db.set_email_status(business_id, "pending").await?;
        self.queue
            .enqueue(jobs::EnrichBusiness { business_id }, Some(key))
            .await?;
        Ok(())
    }
}
