//! Finding businesses: local and topic searches run in chunks over the search sources, lead imports, the offline
//! directory and gazetteer, and enrichment from a business's own website.

pub mod businesses;
pub mod crawler;
pub mod directory;
pub mod enrich;
pub mod facts;
pub mod gazetteer;
pub mod icebreakers;
pub mod import;
pub mod resume;
pub mod search;
pub mod sources;

crate::capability_store!(
    /// The discovery capability's reads and writes: `db.discovery()`.
    DiscoveryStore,
    discovery
);
