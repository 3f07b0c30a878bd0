//! Tracking events (opens, clicks) as the tracking endpoints record them, in batches. Opens by image proxies and
//! link scanners, or within seconds of sending, are flagged as machine events rather than dropped, so analytics can
//! count people.

use serde::Serialize;

use crate::on_db;
use crate::platform::db::{Db, StoreResult, column};
use crate::platform::queries::{EVENT_INSERT_BATCH, EVENT_OF_TOKEN};
use crate::tracking::TrackingStore;

/// User-Agent fragments of mail image proxies, security scanners and scripts.
const MACHINE_AGENTS: &[&str] = &[
    "googleimageproxy",
    "yahoomailproxy",
    "ymailproxy",
    "barracuda",
    "mimecast",
    "proofpoint",
    "symantec",
    "trendmicro",
    "msoffice",
    "bingpreview",
    "python-requests",
    "curl/",
    "wget/",
    "go-http-client",
    "headlesschrome",
];

crate::text_enum! {
    /// What happened to a sent message: the tracking endpoints see opens, clicks and unsubscribes; providers and
    /// mailboxes report the rest.
    pub enum EventKind ("event kind") {
        Open = "open",
        Click = "click",
        Unsubscribe = "unsubscribe",
        Delivered = "delivered",
        Reply = "reply",
        Bounce = "bounce",
        Spam = "spam",
    }
}

/// One event, as an endpoint saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackingEvent {
    pub token: String,
    /// An open or a click.
    pub kind: EventKind,
    pub url: Option<String>,
    /// Set only by [`TrackingEvent::new`], with the flag read from it.
    user_agent: Option<String>,
    pub occurred_at: i64,
    /// Whether the User-Agent is a machine's ([`is_machine_agent`]), read once when the event is made: the write
    /// stores it and the metrics count by it.
    machine_agent: bool,
}

impl TrackingEvent {
    pub fn new(
        token: String,
        kind: EventKind,
        url: Option<String>,
        user_agent: Option<String>,
        occurred_at: i64,
    ) -> Self {
        let machine_agent = is_machine_agent(user_agent.as_deref());
        Self {
            token,
            kind,
            url,
            user_agent,
            occurred_at,
            machine_agent,
        }
    }

    pub fn machine_agent(&self) -> bool {
        self.machine_agent
    }
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
pub struct EventRow {
    pub kind: EventKind,
    pub url: Option<String>,
    pub is_machine: bool,
    pub occurred_at: i64,
}

/// Whether a User-Agent is a proxy, scanner or script rather than a person's mail client.
pub fn is_machine_agent(user_agent: Option<&str>) -> bool {
    let Some(agent) = user_agent else {
        return true;
    };
    let agent = agent.to_ascii_lowercase();
    agent.trim().is_empty() || MACHINE_AGENTS.iter().any(|known| agent.contains(known))
}

impl TrackingStore<'_> {
    /// Stores a batch of events in one statement (arrays on PostgreSQL, a JSON array on SQLite: one call into its
    /// thread instead of one per event), so it is stored whole or not at all: the recorder tries a failed batch
    /// again. The events' trigger moves their messages' first open and click times and state.
    pub async fn insert_events(&self, events: &[TrackingEvent]) -> StoreResult<()> {
        let sql = EVENT_INSERT_BATCH.sql(self);
        match &**self {
            Db::Postgres(pool) => {
                sqlx::query(sql)
                    .bind(column(events, |event| event.token.as_str()))
                    .bind(column(events, |event| event.kind.as_str()))
                    .bind(column(events, |event| event.url.as_deref()))
                    .bind(column(events, |event| event.user_agent.as_deref()))
                    .bind(column(events, |event| event.occurred_at))
                    .bind(column(events, TrackingEvent::machine_agent))
                    .execute(pool)
                    .await?;
                Ok(())
            }
            Db::Sqlite { writer: pool, .. } => {
                let rows: Vec<_> = events
                    .iter()
                    .map(|event| {
                        (
                            &event.token,
                            event.kind,
                            &event.url,
                            &event.user_agent,
                            event.occurred_at,
                            event.machine_agent,
                        )
                    })
                    .collect();
                let rows = serde_json::to_string(&rows).expect("plain values serialise");
                sqlx::query(sql).bind(rows).execute(pool).await.map(|_| ())
            }
        }
    }

    pub async fn events_of(&self, token: &str) -> StoreResult<Vec<EventRow>> {
        let sql = EVENT_OF_TOKEN.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(token).fetch_all(pool).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxies_scanners_and_scripts_are_machines_mail_clients_are_not() {
        assert!(is_machine_agent(Some(
            "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)"
        )));
        assert!(is_machine_agent(Some("python-requests/2.31")));
        assert!(is_machine_agent(None));
        assert!(!is_machine_agent(Some(
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko)"
        )));
        assert!(!is_machine_agent(Some("Thunderbird/128.0")));
    }
}
