//! Mail that comes back: the reader that tells replies, bounces and automatic answers apart, the IMAP mailbox
//! reader, SendGrid's signed event webhook, replies matched to what was sent, and the feedback they apply.

pub mod feedback;
pub mod imap;
pub mod mail;
pub mod replies;
pub mod sendgrid_webhook;

crate::capability_store!(
    /// The inbound capability's reads and writes: `db.inbound()`.
    InboundStore,
    inbound
);
