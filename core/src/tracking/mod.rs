//! What recipients did: open and click events and unsubscribes (through the signed links of `sending::links`),
//! analytics and contacts.

pub mod analytics;
pub mod contacts;
pub mod events;
pub mod recorder;
pub mod senders;
pub mod sent;
pub mod unsubscriber;
pub mod variants;

crate::capability_store!(
    /// The tracking capability's reads and writes: `db.tracking()`.
    TrackingStore,
    tracking
);
