//! The pre-launch check (issue 18): what blocks a launch and what the user should know before it. Blocks: nobody
//! with an address, no postal address for the footer of emails that leave the machine, an unsubscribe link the
//! recipients could not open, a template variable personalisation does not know. Warnings: more emails than the
//! month's remaining quota, a sender domain without SPF, DKIM and DMARC. The launch endpoint refuses a blocked
//! launch with the first block's message; step 6 shows every line before the user launches.

use std::net::{IpAddr, Ipv4Addr};

use serde::Serialize;

use crate::Context;
use crate::accounts::{User, quota_window_start};
use crate::campaigns::templates::check_variables;
use crate::discovery::businesses::BusinessRow;
use crate::platform::clock::Timestamp;
use crate::platform::config::Settings;
use crate::platform::db::StoreError;
use crate::platform::limits::distinct;
use crate::platform::net::is_forbidden;
use crate::sending::domain_auth::needs_no_records;
use crate::sending::launch::valid_address;
use crate::sending::pool::{Standing, Usage, days_to_send};
use crate::sending::senders::{EmailConfig, Provider};
use crate::sending::window::{Place, held_at};

crate::text_enum! {
    /// Whether a finding stops the launch or is only said.
    pub enum CheckLevel ("check level") {
        Block = "block",
        Warn = "warn",
    }
}

crate::text_enum! {
    /// What a finding is about.
    pub enum CheckKind ("launch check") {
        NoRecipients = "no_recipients",
        PostalAddress = "postal_address",
        UnsubscribeLink = "unsubscribe_link",
        UnknownVariable = "unknown_variable",
        MonthlyQuota = "monthly_quota",
        SenderDomain = "sender_domain",
        SendingWindow = "sending_window",
        NoSender = "no_sender",
    }
}

/// One finding, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub level: CheckLevel,
    pub kind: CheckKind,
    pub message: String,
    /// The time the finding is about (the sending window's opening), for the screen to show in the user's own time.
    pub at: Option<Timestamp>,
}

/// The check of one launch: who would be emailed, the quota left, and the findings (blocks first).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LaunchCheck {
    /// Businesses chosen.
    pub recipients: usize,
    /// Of those, businesses with an email address that the campaign has not emailed yet: the emails the launch
    /// sends.
    pub with_email: usize,
    /// Of those, businesses the campaign has emailed already (launched again after a stop): not written again.
    pub already: usize,
    /// Of the emails to send, those whose recipients' sending window is closed now: they wait for it to open.
    pub waiting_for_window: usize,
    /// Emails left of the monthly limit now.
    pub remaining_this_month: i64,
    pub findings: Vec<Finding>,
    /// No finding blocks the launch.
    pub ready: bool,
    /// What the campaign's senders can send today, under their caps and ramp-ups (none: the local outbox, which has
    /// no cap).
    pub capacity_per_day: Option<i64>,
    /// In how many days (today the first) the senders will have sent this launch's emails, each sending every
    /// day as its ramp-up allows (none: the outbox, or more than a year).
    pub days_to_send: Option<i64>,
    /// The first message scored for spam (the pre-launch check endpoint fills it in; none when nobody chosen has an
    /// address). A score of 5 or more asks the user to confirm the launch.
    pub spam_check: Option<crate::sending::spam::report::SpamCheck>,
}

impl LaunchCheck {
    /// The first finding that blocks the launch.
    pub fn block(&self) -> Option<&Finding> {
        self.findings
            .iter()
            .find(|finding| finding.level == CheckLevel::Block)
    }
}

/// What a launch request names, as the user sent it.
#[derive(Debug, Clone, Copy, Default)]
pub struct LaunchRequest<'a> {
    pub campaign_id: Option<i64>,
    pub template_id: Option<i64>,
    pub business_ids: &'a [i64],
    /// The senders to send from (the campaign's pool); else the one sender `email_config_id`; else the sender whose
    /// address is `from_email` (the spec's `campaignEmailSettings.fromEmail`, which picks only a one-sender
    /// campaign's sender); else the campaign's pool, or the user's default sender, or the outbox.
    pub email_config_ids: Option<&'a [i64]>,
    pub email_config_id: Option<i64>,
    pub from_email: Option<&'a str>,
}

/// What a launch request names, each checked to be the user's.
#[derive(Debug, Clone)]
pub struct Planned {
    pub campaign_id: i64,
    pub template_id: i64,
    /// The senders the first emails go from (none: the outbox).
    pub senders: Vec<EmailConfig>,
    /// The request chose them: the campaign's pool becomes this.
    pub chosen: bool,
    pub businesses: Vec<BusinessRow>,
}

/// Why a launch request is refused before any check: the spec's launch errors (A §7), and anything named that is
/// not the user's (as not found, so another user's ids say nothing).
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("{0}")]
    Invalid(&'static str),
    #[error("{0}")]
    NotFound(&'static str),
    /// A pool with no sender in it.
    #[error("Choose at least one sender to send this campaign from")]
    EmptyPool,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads what a launch request names (refusing the spec's launch errors, and anything not the user's) and checks
/// the launch: the pre-launch check and the launch itself both start here.
pub async fn plan_launch(
    ctx: &Context,
    user: &User,
    request: LaunchRequest<'_>,
) -> Result<(Planned, LaunchCheck), PlanError> {
    let db = &ctx.db;
    let template_id = request
        .template_id
        .ok_or(PlanError::Invalid("Template Required"))?;
    if request.business_ids.is_empty() {
        return Err(PlanError::Invalid("No Recipients"));
    }
    let campaign_id = request
        .campaign_id
        .ok_or(PlanError::Invalid("Campaign Required"))?;
    let campaign = db
        .campaigns()
        .find_campaign(campaign_id, user.id)
        .await?
        .ok_or(PlanError::NotFound("Campaign not found"))?;
    let (subject, body) = db
        .campaigns()
        .template_content(template_id, user.id)
        .await?
        .ok_or(PlanError::NotFound("Template not found"))?;
    let (senders, chosen) = plan_senders(ctx, user, campaign_id, &request).await?;
    // A business named twice is sent one email; all are read in one query, and any not the user's is refused.
    let ids = distinct(request.business_ids);
    let businesses = db.discovery().find_businesses(&ids, user.id).await?;
    if businesses.len() != ids.len() {
        return Err(PlanError::NotFound("Business not found"));
    }
    let now = ctx.now_ms();
    let sent_this_month = db
        .accounts()
        .count_sent_emails_since(user.id, quota_window_start(now))
        .await?;
    // A business this campaign has emailed already (a relaunch) is not written again; one a stop skipped is sent.
    let emailed = db.sending().first_messages_to(campaign_id, &ids).await?;
    let fresh: Vec<&BusinessRow> = businesses
        .iter()
        .filter(|business| emailed.get(&business.id).is_none_or(|first| first.stopped))
        .collect();
    let emails: Vec<Option<&str>> = fresh
        .iter()
        .map(|business| business.email.as_deref())
        .collect();
    let places: Vec<Place> = fresh
        .iter()
        .filter(|business| valid_address(business.email.as_deref()).is_some())
        .map(|business| {
            (
                business.latitude,
                business.longitude,
                business.city.as_deref(),
            )
        })
        .collect();
    let pool_ids: Vec<i64> = senders.iter().map(|config| config.id).collect();
    let usage = db.sending().sender_usage(&pool_ids, now).await?;
    let pool: Vec<(EmailConfig, Usage)> = senders
        .iter()
        .map(|config| {
            (
                config.clone(),
                usage.get(&config.id).copied().unwrap_or_default(),
            )
        })
        .collect();
    let mut check = check_launch(
        &ctx.settings,
        &LaunchPlan {
            user,
            sent_this_month,
            subject: &subject,
            body: &body,
            senders: &senders,
            emails: &emails,
            already: businesses.len() - fresh.len(),
            held_by_window: held_at(&campaign.window.window(), now, &places),
        },
    );
    if !senders.is_empty() {
        check.capacity_per_day = Some(
            pool.iter()
                .filter(|(config, _)| config.can_send())
                .map(|(config, usage)| Standing::of(config, *usage, now).cap_today)
                .sum(),
        );
        check.days_to_send = days_to_send(&pool, check.with_email as i64, now);
    }
    let planned = Planned {
        campaign_id,
        template_id,
        senders,
        chosen,
        businesses,
    };
    Ok((planned, check))
}

/// The senders a launch goes from, and whether the request chose them (see [`LaunchRequest`]). A sender that is not
/// the user's is not found; one the user turned off, or that is removed, cannot be chosen.
async fn plan_senders(
    ctx: &Context,
    user: &User,
    campaign_id: i64,
    request: &LaunchRequest<'_>,
) -> Result<(Vec<EmailConfig>, bool), PlanError> {
    let db = &ctx.db;
    let named: Vec<i64> = match (request.email_config_ids, request.email_config_id) {
        (Some([]), _) => return Err(PlanError::EmptyPool),
        (Some(ids), _) => distinct(ids),
        (None, Some(id)) => vec![id],
        (None, None) => Vec::new(),
    };
    let mut chosen = Vec::with_capacity(named.len());
    for id in named {
        let config = db
            .sending()
            .find_email_config(id, user.id)
            .await?
            .filter(|config| config.removed_at.is_none())
            .ok_or(PlanError::NotFound("Email configuration not found"))?;
        if !config.is_active {
            return Err(PlanError::Invalid(
                "This sender is not active; choose another one",
            ));
        }
        chosen.push(config);
    }
    if !chosen.is_empty() {
        return Ok((chosen, true));
    }
    if let Some(address) = request.from_email.map(crate::accounts::normalize_email)
        && let Some(config) = db
            .sending()
            .list_email_configs(user.id)
            .await?
            .into_iter()
            .find(|config| config.is_active && config.send_from.eq_ignore_ascii_case(&address))
    {
        return Ok((vec![config], true));
    }
    Ok((
        db.sending().effective_pool(user.id, campaign_id).await?,
        false,
    ))
}

/// What a launch would use.
pub struct LaunchPlan<'a> {
    pub user: &'a User,
    /// Emails the user sent in the quota window.
    pub sent_this_month: i64,
    pub subject: &'a str,
    pub body: &'a str,
    /// The senders it goes from (none: the local outbox).
    pub senders: &'a [EmailConfig],
    /// The email addresses of the chosen businesses the campaign has not emailed yet, as found.
    pub emails: &'a [Option<&'a str>],
    /// Chosen businesses the campaign has emailed already.
    pub already: usize,
    /// Of the emails, those whose recipients' sending window is closed now, and when the first of them opens
    /// (epoch milliseconds).
    pub held_by_window: (usize, Option<i64>),
}

pub fn check_launch(settings: &Settings, plan: &LaunchPlan<'_>) -> LaunchCheck {
    let mut findings = Vec::new();
    let mut add = |level, kind, message: String| {
        findings.push(Finding {
            level,
            kind,
            message,
            at: None,
        })
    };
    let with_email = plan
        .emails
        .iter()
        .filter(|email| valid_address(**email).is_some())
        .count();
    let leaves_machine = plan
        .senders
        .iter()
        .any(|config| config.provider != Provider::Outbox);
    if with_email == 0 {
        let message = if plan.already > 0 && plan.emails.is_empty() {
            "Every chosen business has this campaign's email already: there is nobody new to send to."
        } else {
            "None of the chosen businesses has an email address: there is nobody to send to."
        };
        add(CheckLevel::Block, CheckKind::NoRecipients, message.into());
    }
    if plan
        .user
        .postal_address
        .as_deref()
        .is_none_or(|address| address.trim().is_empty())
    {
        let (level, message) = if leaves_machine {
            (
                CheckLevel::Block,
                "Add your postal address in Email Settings: anti-spam laws require it in the footer of every \
                 marketing email.",
            )
        } else {
            (
                CheckLevel::Warn,
                "The footer has no postal address. The local outbox keeps these emails, but add it in Email \
                 Settings before you send through a real sender.",
            )
        };
        add(level, CheckKind::PostalAddress, message.into());
    }
    if leaves_machine && !recipients_reach(settings) {
        add(
            CheckLevel::Block,
            CheckKind::UnsubscribeLink,
            format!(
                "Recipients could not open the unsubscribe link: this instance's address ({}) can only be \
                 reached from its own network. Ask the administrator to give the instance a public address.",
                settings.http.public_url()
            ),
        );
    }
    for text in [plan.subject, plan.body] {
        if let Err(error) = check_variables(text) {
            add(
                CheckLevel::Block,
                CheckKind::UnknownVariable,
                format!("The template cannot be personalised. {error}."),
            );
            break;
        }
    }
    let limit = plan.user.email_limit(&settings.auth, &settings.accounts);
    let remaining = (limit - plan.sent_this_month).max(0);
    if with_email as i64 > remaining {
        let message = if remaining == 0 {
            format!(
                "{with_email} emails to send, and this month's limit of {limit} is used up: the campaign waits \
                 and sends when there is room."
            )
        } else {
            format!(
                "{with_email} emails to send, and {remaining} are left of this month's limit of {limit}: the \
                 campaign sends {remaining}, then pauses until there is room."
            )
        };
        add(CheckLevel::Warn, CheckKind::MonthlyQuota, message);
    }
    if let (held @ 1.., Some(_)) = plan.held_by_window {
        let message = if held == with_email {
            "The sending window is closed for every recipient now: the emails wait, and the first go out when it \
             opens."
                .to_string()
        } else {
            format!(
                "{held} of {with_email} emails wait for the sending window, closed now where their recipients are: \
                 the first of them go out when it opens."
            )
        };
        add(CheckLevel::Warn, CheckKind::SendingWindow, message);
    }
    // A sender's domain verdict is kept by the domain check of Email Settings (its message); a sender saved since
    // has none yet.
    if !plan.senders.is_empty() && !plan.senders.iter().any(EmailConfig::can_send) {
        add(
            CheckLevel::Block,
            CheckKind::NoSender,
            "No sender of this campaign can send now (each is out of rotation, turned off or removed): put one \
             back or choose another in step 5."
                .into(),
        );
    }
    for config in plan
        .senders
        .iter()
        .filter(|config| !needs_no_records(config.provider, &config.send_from))
    {
        let verdict = match (&config.status_message, config.is_verified) {
            (Some(_), true) => None,
            (Some(message), false) => Some(message.clone()),
            (None, _) => Some("its domain has not been checked for SPF, DKIM and DMARC yet".into()),
        };
        if let Some(verdict) = verdict {
            add(
                CheckLevel::Warn,
                CheckKind::SenderDomain,
                format!(
                    "{}: {verdict}. Without SPF, DKIM and DMARC, receivers may file these emails as spam; check \
                     the domain in Email Settings.",
                    config.send_from
                ),
            );
        }
    }
    if let Some(window) = findings
        .iter_mut()
        .find(|finding| finding.kind == CheckKind::SendingWindow)
    {
        window.at = plan.held_by_window.1.map(Timestamp);
    }
    findings.sort_by_key(|finding| finding.level != CheckLevel::Block);
    let ready = !findings
        .iter()
        .any(|finding| finding.level == CheckLevel::Block);
    LaunchCheck {
        recipients: plan.emails.len() + plan.already,
        with_email,
        already: plan.already,
        waiting_for_window: plan.held_by_window.0,
        remaining_this_month: remaining,
        findings,
        ready,
        capacity_per_day: None,
        days_to_send: None,
        spam_check: None,
    }
}

/// Whether recipients can open links to this instance (unsubscribe, tracking): its public address is not a
/// loopback or private one, unless the operator allows those hosts for sending (a closed network, or a test whose
/// recipients are on the same machine).
fn recipients_reach(settings: &Settings) -> bool {
    let Ok(url) = url::Url::parse(&settings.http.public_url()) else {
        return false;
    };
    let ip = match url.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        Some(url::Host::Domain(name)) => {
            let name = name.to_ascii_lowercase();
            if name == "localhost" || name.ends_with(".localhost") {
                IpAddr::V4(Ipv4Addr::LOCALHOST)
            } else {
                return true;
            }
        }
        None => return false,
    };
    !is_forbidden(ip) || settings.sending.policy().permits(ip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::net::Security;

    fn user(postal_address: Option<&str>) -> User {
        User {
            id: 1,
            email: "ada@bakery.example".into(),
            first_name: Some("Ada".into()),
            last_name: None,
            account_status: crate::accounts::AccountStatus::Active,
            subscription_status: crate::accounts::SubscriptionStatus::Active,
            subscription_plan: Some("premium".into()),
            email_limit: 10,
            subscription_ends_at: None,
            created_at: 0,
            postal_address: postal_address.map(str::to_string),
        }
    }

    fn smtp(verified: bool) -> EmailConfig {
        EmailConfig {
            id: 1,
            user_id: 1,
            provider: Provider::Smtp,
            send_from: "ada@bakery.example".into(),
            send_from_name: "Ada".into(),
            reply_to: None,
            smtp_host: Some("mail.bakery.example".into()),
            smtp_port: Some(587),
            smtp_security: Some(Security::StartTls),
            smtp_username: None,
            secret: None,
            imap_host: None,
            imap_port: None,
            imap_security: None,
            imap_username: None,
            daily_cap: 100,
            is_active: true,
            is_default: true,
            is_verified: verified,
            status_message: Some(if verified {
                "bakery.example publishes SPF, DKIM and DMARC".into()
            } else {
                "bakery.example is missing DKIM, DMARC".into()
            }),
            created_at: 0,
            replies_checked_at: None,
            replies_error: None,
            gmail_read: false,
            ramp_up: false,
            ramp_start: 10,
            ramp_step: 5,
            failure_streak: 0,
            out_at: None,
            out_reason: None,
            removed_at: None,
        }
    }

    fn public_settings() -> Settings {
        let mut settings = Settings::default();
        settings.http.public_url = "https://outreach.bakery.example".into();
        settings
    }

    fn kinds(check: &LaunchCheck) -> Vec<(CheckLevel, CheckKind)> {
        check
            .findings
            .iter()
            .map(|finding| (finding.level, finding.kind))
            .collect()
    }

    #[test]
    fn a_launch_with_everything_in_place_is_ready() {
        let user = user(Some("Bakery Street 1"));
        let config = smtp(true);
        let emails = [Some("a@cafe.example"), None];
        let plan = LaunchPlan {
            user: &user,
            sent_this_month: 0,
            subject: "Hi {{businessName}}",
            body: "<p>Hello</p>",
            senders: std::slice::from_ref(&config),
            emails: &emails,
            already: 0,
            held_by_window: (0, None),
        };
        let check = check_launch(&public_settings(), &plan);
        assert_eq!(
            (
                check.recipients,
                check.with_email,
                check.remaining_this_month
            ),
            (2, 1, 10)
        );
        assert!(check.ready && check.findings.is_empty(), "{check:?}");
    }

    #[test]
    fn blocks_come_first_and_warnings_carry_the_numbers() {
        let user = user(None);
        let config = smtp(false);
        let owners: Vec<String> = (1..=12)
            .map(|id| format!("owner{id}@cafe.example"))
            .collect();
        let emails: Vec<Option<&str>> = owners.iter().map(|owner| Some(owner.as_str())).collect();
        let plan = LaunchPlan {
            user: &user,
            sent_this_month: 4,
            subject: "Hi {{firstName}}",
            body: "<p>Hello</p>",
            senders: std::slice::from_ref(&config),
            emails: &emails,
            already: 0,
            held_by_window: (0, None),
        };
        // The default public address is loopback, which recipients cannot reach.
        let check = check_launch(&Settings::default(), &plan);
        assert_eq!(
            kinds(&check),
            [
                (CheckLevel::Block, CheckKind::PostalAddress),
                (CheckLevel::Block, CheckKind::UnsubscribeLink),
                (CheckLevel::Block, CheckKind::UnknownVariable),
                (CheckLevel::Warn, CheckKind::MonthlyQuota),
                (CheckLevel::Warn, CheckKind::SenderDomain),
            ]
        );
        assert!(!check.ready);
        assert_eq!(check.block().unwrap().kind, CheckKind::PostalAddress);
        let messages: Vec<&str> = check
            .findings
            .iter()
            .map(|finding| finding.message.as_str())
            .collect();
        assert!(
            messages[1].contains("(http://127.0.0.1:8080)"),
            "{}",
            messages[1]
        );
        assert!(messages[2].contains("{{firstName}}"), "{}", messages[2]);
        assert_eq!(
            messages[3],
            "12 emails to send, and 6 are left of this month's limit of 10: the campaign sends 6, then pauses \
             until there is room."
        );
        assert!(
            messages[4].starts_with("ada@bakery.example: bakery.example is missing DKIM, DMARC."),
            "{}",
            messages[4]
        );
    }

    #[test]
    fn the_local_outbox_needs_no_public_address_and_only_a_warning_for_the_postal_address() {
        let user = user(None);
        let emails = [Some("not an address")];
        let plan = LaunchPlan {
            user: &user,
            sent_this_month: 10,
            subject: "Hi",
            body: "<p>Hello</p>",
            senders: &[],
            emails: &emails,
            already: 0,
            held_by_window: (0, None),
        };
        let check = check_launch(&Settings::default(), &plan);
        assert_eq!(
            kinds(&check),
            [
                (CheckLevel::Block, CheckKind::NoRecipients),
                (CheckLevel::Warn, CheckKind::PostalAddress),
            ]
        );
    }

    #[test]
    fn a_loopback_address_reaches_recipients_only_where_the_operator_allows_loopback_hosts() {
        let mut settings = Settings::default();
        assert!(!recipients_reach(&settings));
        settings.http.public_url = "http://app.localhost:8080".into();
        assert!(!recipients_reach(&settings));
        settings.http.public_url = "http://10.0.0.5".into();
        assert!(!recipients_reach(&settings));
        settings.http.public_url = "https://outreach.example.com".into();
        assert!(recipients_reach(&settings));
        settings.http.public_url = "http://127.0.0.1:8080".into();
        settings.sending.allow_hosts = vec!["127.0.0.1/32".into()];
        assert!(recipients_reach(&settings));
    }
}
