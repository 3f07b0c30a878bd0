//! Accounts: the invite-only gate, plans and their periods, and the monthly email quota window.

pub mod store;

use serde::Serialize;

use crate::platform::clock::{DAY_MS, iso};
use crate::platform::config::{AccountSettings, AuthSettings};

crate::capability_store!(
    /// The accounts capability's reads and writes: `db.accounts()`.
    AccountsStore,
    accounts
);

/// A premium grant lasts 30 days (B §9); the quota window is the last 30 days (A §7).
pub const PREMIUM_DAYS: i64 = 30;
pub const QUOTA_WINDOW_DAYS: i64 = 30;

/// The gate's refusal text (A §8).
pub const INACTIVE_MESSAGE: &str = "Account inactive or subscription expired";

crate::text_enum! {
    /// Whether an account may sign in to the product at all (an administrator activates it).
    pub enum AccountStatus ("account status") {
        Active = "active",
        Inactive = "inactive",
    }
}

crate::text_enum! {
    /// Where an account's subscription is: a paid one or a trial runs until its end; expired or none does not.
    pub enum SubscriptionStatus ("subscription status") {
        Active = "active",
        Trial = "trial",
        Expired = "expired",
        None = "none",
    }
}

impl SubscriptionStatus {
    /// A paid subscription or a trial (until its end date).
    pub fn runs(self) -> bool {
        matches!(self, SubscriptionStatus::Active | SubscriptionStatus::Trial)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub account_status: AccountStatus,
    pub subscription_status: SubscriptionStatus,
    pub subscription_plan: Option<String>,
    pub email_limit: i64,
    pub subscription_ends_at: Option<i64>,
    pub created_at: i64,
    /// The postal address every email's footer carries (CAN-SPAM).
    pub postal_address: Option<String>,
}

impl User {
    /// First and last name as far as the profile has them ('' without either).
    pub fn full_name(&self) -> String {
        [self.first_name.as_deref(), self.last_name.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Whether the account may use the product now. Administrators always may.
    pub fn has_access(&self, now_ms: i64, auth: &AuthSettings) -> bool {
        if auth.is_admin(&self.email) {
            return true;
        }
        let within_period = self.subscription_ends_at.is_none_or(|ends| ends > now_ms);
        self.account_status == AccountStatus::Active
            && self.subscription_status.runs()
            && within_period
    }

    /// The monthly limit, with the administrators' own limit for them.
    pub fn email_limit(&self, auth: &AuthSettings, accounts: &AccountSettings) -> i64 {
        if auth.is_admin(&self.email) {
            self.email_limit.max(accounts.admin_email_limit)
        } else {
            self.email_limit
        }
    }

    /// The plan name shown on the usage meter.
    pub fn plan_type(&self, auth: &AuthSettings) -> &str {
        if auth.is_admin(&self.email) {
            return "admin";
        }
        self.subscription_plan.as_deref().unwrap_or("none")
    }

    pub fn view(&self, auth: &AuthSettings) -> UserView {
        UserView {
            id: self.id,
            email: self.email.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            account_status: self.account_status,
            subscription_status: self.subscription_status,
            subscription_plan: self.subscription_plan.clone(),
            email_limit: self.email_limit,
            subscription_ends_at: self.subscription_ends_at.map(iso),
            is_admin: auth.is_admin(&self.email),
        }
    }
}

/// The user as the API returns it (camelCase, B §3 User admin view).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: i64,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub account_status: AccountStatus,
    pub subscription_status: SubscriptionStatus,
    pub subscription_plan: Option<String>,
    pub email_limit: i64,
    pub subscription_ends_at: Option<String>,
    pub is_admin: bool,
}

/// What an administrator or an invite code grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    FreeTrial,
    Premium {
        email_limit: i64,
    },
    /// Administrators: active without an end date.
    Administrator,
}

/// The subscription columns a grant sets: status, plan, monthly limit, end time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub status: &'static str,
    pub plan: Option<&'static str>,
    pub email_limit: i64,
    pub ends_at: Option<i64>,
}

impl Grant {
    pub fn subscription(self, now_ms: i64, accounts: &AccountSettings) -> Subscription {
        match self {
            Grant::FreeTrial => Subscription {
                status: "trial",
                plan: Some("free_trial"),
                email_limit: accounts.trial_email_limit,
                ends_at: Some(now_ms + i64::from(accounts.trial_days) * DAY_MS),
            },
            Grant::Premium { email_limit } => Subscription {
                status: "active",
                plan: Some("premium"),
                email_limit,
                ends_at: Some(now_ms + PREMIUM_DAYS * DAY_MS),
            },
            Grant::Administrator => Subscription {
                status: "active",
                plan: None,
                email_limit: accounts.admin_email_limit,
                ends_at: None,
            },
        }
    }
}

/// The start of the monthly quota window.
pub fn quota_window_start(now_ms: i64) -> i64 {
    now_ms - QUOTA_WINDOW_DAYS * DAY_MS
}

/// Emails are compared and stored lowercased and trimmed.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// A plain syntactic check: something@domain.tld without spaces.
pub fn is_valid_email(email: &str) -> bool {
    let email = email.trim();
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !email.contains(char::is_whitespace)
        && !domain.contains('@')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|label| !label.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(account: &str, subscription: &str, ends_at: Option<i64>) -> User {
        User {
            id: 1,
            email: "person@example.org".into(),
            first_name: None,
            last_name: None,
            account_status: account.parse().unwrap(),
            subscription_status: subscription.parse().unwrap(),
            subscription_plan: None,
            email_limit: 0,
            subscription_ends_at: ends_at,
            created_at: 0,
            postal_address: None,
        }
    }

    #[test]
    fn gate_requires_active_account_and_running_subscription() {
        let auth = AuthSettings::default();
        assert!(!user("inactive", "none", None).has_access(10, &auth));
        assert!(!user("active", "none", None).has_access(10, &auth));
        assert!(!user("active", "expired", None).has_access(10, &auth));
        assert!(user("active", "trial", Some(11)).has_access(10, &auth));
        assert!(
            !user("active", "trial", Some(10)).has_access(10, &auth),
            "ends at the end time, before the daily job"
        );
        assert!(user("active", "active", None).has_access(10, &auth));
    }

    #[test]
    fn administrators_always_pass() {
        let auth = AuthSettings {
            admin_emails: vec!["person@example.org".into()],
            ..AuthSettings::default()
        };
        assert!(user("inactive", "none", None).has_access(10, &auth));
    }

    #[test]
    fn grants_set_their_periods() {
        let accounts = AccountSettings::default();
        let premium = Grant::Premium { email_limit: 1000 }.subscription(0, &accounts);
        assert_eq!(premium.ends_at, Some(30 * DAY_MS));
        assert_eq!(
            (premium.status, premium.plan, premium.email_limit),
            ("active", Some("premium"), 1000)
        );
        let trial = Grant::FreeTrial.subscription(0, &accounts);
        assert_eq!(trial.ends_at, Some(i64::from(accounts.trial_days) * DAY_MS));
        assert_eq!(trial.status, "trial");
    }

    #[test]
    fn email_syntax() {
        assert!(is_valid_email("a@b.co"));
        assert!(is_valid_email(" a.b+c@sub.example.org "));
        for bad in [
            "", "a", "a@", "@b.co", "a@b", "a b@c.de", "a@b..de", "a@@b.de",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }
}
