//! The user's senders: SMTP servers, Gmail connections, SendGrid addresses and the local outbox, as stored
//! (credentials encrypted), with the username rule of basic addresses.

use crate::on_db;
use crate::platform::clock::Timestamp;
use crate::platform::db::BeginWrite;
use crate::platform::db::StoreResult;
use crate::platform::net::Security;
use crate::platform::queries::*;
use crate::sending::SendingStore;

/// A §5 Sender identity: the rule for the username of a basic address.
pub const USERNAME_RULE: &str =
    "Username must be 3-30 characters and contain only letters, numbers, hyphens, and underscores";

/// Whether a basic address's username follows [`USERNAME_RULE`].
pub fn valid_username(username: &str) -> bool {
    (3..=30).contains(&username.chars().count())
        && username
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A username made from a name or an address: lowercase letters, digits and hyphens, 3 to 30 characters.
pub fn username_from(text: &str) -> String {
    let mut username: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    while username.contains("--") {
        username = username.replace("--", "-");
    }
    let mut username = username.trim_matches('-').to_string();
    username.truncate(30);
    while username.chars().count() < 3 {
        username.push('x');
    }
    username
}

crate::text_enum! {
    /// Who carries a sender's mail: the local outbox, an SMTP server, the Gmail API, or SendGrid (from a single
    /// verified sender, or from an authenticated domain of the user's own).
    #[derive(Default)]
    pub enum Provider ("sender provider") {
        #[default]
        Outbox = "outbox",
        Smtp = "smtp",
        Gmail = "gmail",
        SendGridBasic = "sendgrid-basic",
        SendGridCustom = "sendgrid-custom",
    }
}

impl Provider {
    /// A §4 Email tiers: basic (Gmail), intermediate (basic SendGrid), advanced (branded SendGrid); SMTP and the
    /// outbox are tiers of their own.
    pub fn tier(self) -> &'static str {
        match self {
            Provider::Gmail => "basic",
            Provider::SendGridBasic => "intermediate",
            Provider::SendGridCustom => "advanced",
            Provider::Smtp | Provider::Outbox => self.as_str(),
        }
    }
}

/// A new sender's warm-up: it starts at `start` messages a day and adds `step` each day it has sent, up to its daily
/// cap. Cold mailboxes that send hundreds on their first day land in spam.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ramp {
    pub enabled: bool,
    pub start: i32,
    pub step: i32,
}

impl Ramp {
    /// What a sender set up from now on starts with.
    pub const DEFAULT: Ramp = Ramp {
        enabled: true,
        start: 10,
        step: 5,
    };
    /// No warm-up: the full cap from the first day (senders set up before pools, the outbox).
    pub const OFF: Ramp = Ramp {
        enabled: false,
        ..Ramp::DEFAULT
    };

    /// The cap on a day when the sender has sent on `days_sent` earlier days.
    pub fn cap(self, daily_cap: i32, days_sent: i64) -> i64 {
        let full = i64::from(daily_cap);
        if !self.enabled {
            return full;
        }
        let ramped =
            i64::from(self.start).saturating_add(i64::from(self.step).saturating_mul(days_sent));
        ramped.min(full)
    }

    /// Days from a day whose cap is `cap` until the full cap, sending every day.
    pub fn days_to_full(self, daily_cap: i32, cap: i64) -> i64 {
        let short = i64::from(daily_cap) - cap;
        if !self.enabled || short <= 0 {
            return 0;
        }
        let step = i64::from(self.step.max(1));
        (short + step - 1) / step
    }
}

impl Default for Ramp {
    fn default() -> Self {
        Ramp::OFF
    }
}

crate::text_enum! {
    /// Whether a sender sends now, and if not, why: taken out of rotation (or turned off, or removed), at today's
    /// cap, or sending below its full cap while it ramps up.
    #[derive(Default)]
    pub enum SenderState ("sender state") {
        #[default]
        Active = "active",
        AtCap = "at_cap",
        Ramping = "ramping",
        Out = "out",
    }
}

/// A stored sender configuration. `secret` is the encrypted credential and never leaves the server.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EmailConfig {
    pub id: i64,
    pub user_id: i64,
    pub provider: Provider,
    pub send_from: String,
    pub send_from_name: String,
    pub reply_to: Option<String>,
    pub smtp_host: Option<String>,
    pub smtp_port: Option<i32>,
    pub smtp_security: Option<Security>,
    pub smtp_username: Option<String>,
    pub secret: Option<String>,
    pub imap_host: Option<String>,
    pub imap_port: Option<i32>,
    pub imap_security: Option<Security>,
    pub imap_username: Option<String>,
    pub daily_cap: i32,
    pub is_active: bool,
    pub is_default: bool,
    pub is_verified: bool,
    pub status_message: Option<String>,
    pub created_at: i64,
    /// When the sender's own mailbox (IMAP or Gmail) was last read for replies, and why it could not be.
    pub replies_checked_at: Option<i64>,
    pub replies_error: Option<String>,
    /// A Gmail sender whose mailbox may be read for replies.
    pub gmail_read: bool,
    /// Its daily cap while it warms up (see [`Ramp`]).
    pub ramp_up: bool,
    pub ramp_start: i32,
    pub ramp_step: i32,
    /// Connections or sign-ins that failed in a row.
    pub failure_streak: i32,
    /// When and why it was taken out of rotation (see `health`).
    pub out_at: Option<i64>,
    pub out_reason: Option<String>,
    /// When the user removed it (its row stays for the threads it wrote).
    pub removed_at: Option<i64>,
}

impl EmailConfig {
    /// Its ramp-up settings.
    pub fn ramp(&self) -> Ramp {
        Ramp {
            enabled: self.ramp_up,
            start: self.ramp_start,
            step: self.ramp_step,
        }
    }

    /// It may send: active, in rotation and not removed.
    pub fn can_send(&self) -> bool {
        self.is_active && self.out_at.is_none() && self.removed_at.is_none()
    }
}

/// A sender as the API lists it (A §3 Email config), with the SMTP and IMAP details a form edits (never a password
/// or a token).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailConfigView {
    pub id: i64,
    /// "Name <address>".
    pub config_name: String,
    pub send_from_name: String,
    pub display_name: String,
    pub email_address: String,
    pub reply_to: Option<String>,
    pub provider: Provider,
    pub is_active: bool,
    pub is_default: bool,
    pub is_verified: bool,
    pub status_message: Option<String>,
    pub daily_cap: i32,
    pub smtp_host: Option<String>,
    pub smtp_port: Option<i32>,
    pub smtp_security: Option<Security>,
    pub smtp_username: Option<String>,
    pub imap_host: Option<String>,
    pub imap_port: Option<i32>,
    pub imap_security: Option<Security>,
    pub imap_username: Option<String>,
    /// When the sender's mailbox was last read for replies, and why it could not be.
    pub replies_checked_at: Option<Timestamp>,
    pub replies_error: Option<String>,
    /// A Gmail sender whose mailbox may be read for replies.
    pub gmail_read: bool,
    /// Its ramp-up, today's cap under it, and the day it reaches its full cap.
    pub ramp_up: bool,
    pub ramp_start: i32,
    pub ramp_step: i32,
    pub cap_today: i64,
    pub sent_today: i64,
    pub full_cap_on: Option<Timestamp>,
    /// Whether it sends now, and why not (taken out, at its cap, ramping up).
    pub state: SenderState,
    pub state_reason: Option<String>,
    /// When it was taken out of rotation.
    pub out_at: Option<Timestamp>,
}

/// Where reading a sender's mailbox stopped (`inbound::imap`): the mailbox's UIDVALIDITY and the last UID read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub uid_validity: u32,
    pub last_uid: u32,
}

/// A configuration to store; `secret` and `imap_secret` are already encrypted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewEmailConfig {
    pub provider: Provider,
    pub send_from: String,
    pub send_from_name: String,
    pub reply_to: Option<String>,
    pub smtp_host: Option<String>,
    pub smtp_port: Option<i32>,
    pub smtp_security: Option<Security>,
    pub smtp_username: Option<String>,
    pub secret: Option<String>,
    pub imap_host: Option<String>,
    pub imap_port: Option<i32>,
    pub imap_security: Option<Security>,
    pub imap_username: Option<String>,
    pub imap_secret: Option<String>,
    /// Where INBOX ended when the IMAP login was checked: reading replies starts after it.
    pub imap_start: Option<Mark>,
    pub daily_cap: i32,
    pub ramp: Ramp,
    pub is_verified: bool,
    pub status_message: Option<String>,
}

impl SendingStore<'_> {
    pub async fn insert_email_config(
        &self,
        user_id: i64,
        config: &NewEmailConfig,
        now: i64,
    ) -> StoreResult<i64> {
        let sql = EMAIL_CONFIG_INSERT.sql(self);
        on_db!(self, pool => sqlx::query_scalar(sql).bind(user_id).bind(config.provider).bind(&config.send_from)
            .bind(&config.send_from_name).bind(&config.reply_to).bind(&config.smtp_host).bind(config.smtp_port)
            .bind(config.smtp_security).bind(&config.smtp_username).bind(&config.secret).bind(&config.imap_host)
            .bind(config.imap_port).bind(config.imap_security).bind(&config.imap_username).bind(&config.imap_secret)
            .bind(config.daily_cap).bind(config.is_verified).bind(&config.status_message).bind(now)
            .bind(config.imap_start.map(|mark| i64::from(mark.uid_validity)))
            .bind(config.imap_start.map(|mark| i64::from(mark.last_uid)))
            .bind(config.ramp.enabled).bind(config.ramp.start).bind(config.ramp.step)
            .fetch_one(pool).await)
    }

    /// The user's default active sender; None means the local outbox.
    pub async fn default_sender(&self, user_id: i64) -> StoreResult<Option<EmailConfig>> {
        Ok(self
            .list_email_configs(user_id)
            .await?
            .into_iter()
            .find(|config| config.is_default && config.is_active))
    }

    pub async fn list_email_configs(&self, user_id: i64) -> StoreResult<Vec<EmailConfig>> {
        let sql = EMAIL_CONFIG_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)
    }

    pub async fn load_email_config(&self, id: i64) -> StoreResult<Option<EmailConfig>> {
        let sql = EMAIL_CONFIG_LOAD.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(id).fetch_optional(pool).await)
    }

    /// One of the user's configurations (None for another user's).
    pub async fn find_email_config(
        &self,
        id: i64,
        user_id: i64,
    ) -> StoreResult<Option<EmailConfig>> {
        Ok(self
            .load_email_config(id)
            .await?
            .filter(|config| config.user_id == user_id))
    }

    pub async fn set_default_email_config(
        &self,
        user_id: i64,
        id: i64,
        now: i64,
    ) -> StoreResult<()> {
        let sql = EMAIL_CONFIG_SET_DEFAULT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(user_id).bind(id).bind(now).execute(pool).await.map(|_| ()))
    }

    /// Removes a configuration: its credentials go, it leaves every campaign's pool, and another becomes the default
    /// if it was. False when it is not the user's or messages still wait to go out through it.
    pub async fn delete_email_config(&self, user_id: i64, id: i64, now: i64) -> StoreResult<bool> {
        let (delete, promote) = (
            EMAIL_CONFIG_DELETE.sql(self),
            EMAIL_CONFIG_PROMOTE_DEFAULT.sql(self),
        );
        let (campaigns, leave, first) = (
            CAMPAIGN_SENDERS_CAMPAIGNS_OF.sql(self),
            CAMPAIGN_SENDERS_LEAVE.sql(self),
            CAMPAIGN_SENDERS_FIRST.sql(self),
        );
        on_db!(self, pool => {
            let mut tx = pool.begin_write().await?;
            let removed = sqlx::query(delete).bind(id).bind(user_id).bind(now).execute(&mut *tx).await?
                .rows_affected() > 0;
            if removed {
                let pools: Vec<(i64, String)> = sqlx::query_as(campaigns).bind(id).fetch_all(&mut *tx).await?;
                sqlx::query(leave).bind(id).execute(&mut *tx).await?;
                for (campaign_id, _) in pools {
                    sqlx::query(first).bind(campaign_id).execute(&mut *tx).await?;
                }
                sqlx::query(promote).bind(user_id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(removed)
        })
    }

    /// A sender's daily cap and ramp-up (a no-op for another user's id).
    pub async fn set_sender_limits(
        &self,
        id: i64,
        user_id: i64,
        daily_cap: i32,
        ramp: Ramp,
        now: i64,
    ) -> StoreResult<()> {
        let sql = EMAIL_CONFIG_SET_LIMITS.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(daily_cap).bind(ramp.enabled)
            .bind(ramp.start).bind(ramp.step).bind(now).execute(pool).await.map(drop))
    }

    /// Whether a sender of any user has this address.
    pub async fn email_address_taken(&self, address: &str) -> StoreResult<bool> {
        let sql = EMAIL_CONFIG_ADDRESS_TAKEN.sql(self);
        let count: i64 =
            on_db!(self, pool => sqlx::query_scalar(sql).bind(address).fetch_one(pool).await)?;
        Ok(count > 0)
    }

    /// Stores a new refresh token for a Gmail address the user connected before; false when there is none.
    pub async fn reconnect_gmail_config(
        &self,
        user_id: i64,
        config: &NewEmailConfig,
        now: i64,
    ) -> StoreResult<bool> {
        let sql = EMAIL_CONFIG_RECONNECT.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(user_id).bind(&config.send_from).bind(&config.secret)
            .bind(&config.send_from_name).bind(&config.reply_to).bind(now).execute(pool).await
            .map(|done| done.rows_affected() > 0))
    }

    /// Changes a configuration's name, address and reply-to (a no-op for another user's id).
    pub async fn update_email_identity(
        &self,
        id: i64,
        user_id: i64,
        identity: (&str, &str, Option<&str>),
        now: i64,
    ) -> StoreResult<()> {
        let (name, address, reply_to) = identity;
        let sql = EMAIL_CONFIG_UPDATE_IDENTITY.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(user_id).bind(name).bind(address).bind(reply_to)
            .bind(now).execute(pool).await.map(|_| ()))
    }

    pub async fn set_email_config_verified(
        &self,
        id: i64,
        verified: bool,
        summary: &str,
        now: i64,
    ) -> StoreResult<()> {
        let sql = EMAIL_CONFIG_SET_VERIFIED.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(verified).bind(summary).bind(now).execute(pool).await
            .map(|_| ()))
    }

    pub async fn deactivate_email_config(
        &self,
        id: i64,
        reason: &str,
        now: i64,
    ) -> StoreResult<()> {
        let sql = EMAIL_CONFIG_DEACTIVATE.sql(self);
        on_db!(self, pool => sqlx::query(sql).bind(id).bind(reason).bind(now).execute(pool).await.map(|_| ()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ramp_starts_low_and_rises_each_day_sent_up_to_the_cap() {
        let ramp = Ramp::DEFAULT;
        assert_eq!(ramp.cap(50, 0), 10);
        assert_eq!(ramp.cap(50, 1), 15);
        assert_eq!(ramp.cap(50, 8), 50);
        assert_eq!(ramp.cap(50, 100), 50);
        assert_eq!(ramp.days_to_full(50, 10), 8);
        assert_eq!(ramp.days_to_full(50, 48), 1);
        assert_eq!(ramp.days_to_full(50, 50), 0);
        assert_eq!(Ramp::OFF.cap(50, 0), 50);
        assert_eq!(Ramp::OFF.days_to_full(50, 10), 0);
    }

    #[test]
    fn usernames_follow_the_rule_and_suggestions_are_valid() {
        assert!(valid_username("ada_baker-1"));
        assert!(!valid_username("ab"));
        assert!(!valid_username("ada.baker"));
        assert!(!valid_username(&"a".repeat(31)));
        assert_eq!(username_from("Ada Lovelace"), "ada-lovelace");
        assert_eq!(username_from("ö"), "xxx");
        assert_eq!(username_from("  Ada..Baker!! "), "ada-baker");
        assert!(valid_username(&username_from(&"long name ".repeat(10))));
    }
}
