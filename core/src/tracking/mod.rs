//! What recipients did: signed tracking and unsubscribe links, open and click events, analytics and contacts.

pub mod analytics;
pub mod contacts;
pub mod events;
pub mod links;
pub mod recorder;
pub mod suppression;
