//! Sender domain authentication (A §7 `verify-email-config`): the SPF, DKIM and DMARC records of a sender's
//! domain, read from DNS, each with what is missing and how to add it. Receivers check all three; a domain without
//! them lands in spam or is refused, so the settings screen says exactly which record to add.

use serde::Serialize;

use crate::platform::dns::{DnsLookup, Records};
use crate::sending::senders::Provider;

/// DKIM selectors worth trying for an SMTP sender whose selector is unknown (cPanel, Microsoft 365, Google
/// Workspace, Mailchimp and SendGrid, Fastmail, common defaults).
const COMMON_SELECTORS: &[&str] = &[
    "default",
    "selector1",
    "selector2",
    "google",
    "k1",
    "s1",
    "s2",
    "fm1",
    "mail",
    "dkim",
];

/// Consumer Gmail addresses; any other domain connected through Google is a Workspace mailbox.
pub fn is_consumer_gmail(address: &str) -> bool {
    let domain = address.rsplit('@').next().unwrap_or_default();
    domain.eq_ignore_ascii_case("gmail.com") || domain.eq_ignore_ascii_case("googlemail.com")
}

/// Senders with no domain records of the user's to publish: nothing leaves the machine through the outbox, and
/// Google signs consumer Gmail itself.
pub fn needs_no_records(provider: Provider, address: &str) -> bool {
    provider == Provider::Outbox || (provider == Provider::Gmail && is_consumer_gmail(address))
}

/// One record's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    pub name: &'static str,
    pub passed: bool,
    /// The record found, as published.
    pub record: Option<String>,
    /// What was found, or what to add.
    pub detail: String,
    /// False when DNS did not answer: the record is unknown, not missing.
    #[serde(skip)]
    pub answered: bool,
}

/// The three checks of one domain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub domain: String,
    pub checks: Vec<Check>,
}

impl Report {
    pub fn verified(&self) -> bool {
        self.checks.iter().all(|check| check.passed)
    }

    /// The names of the checks DNS answered and that failed, e.g. `["DKIM", "DMARC"]`.
    pub fn missing(&self) -> Vec<&'static str> {
        self.names(|check| check.answered && !check.passed)
    }

    /// The names of the checks DNS did not answer: unknown, so neither passed nor missing.
    pub fn unanswered(&self) -> Vec<&'static str> {
        self.names(|check| !check.answered)
    }

    fn names(&self, keep: impl Fn(&Check) -> bool) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|check| keep(check))
            .map(|check| check.name)
            .collect()
    }

    /// One line for the sender's status: verified, what DNS did not answer, and what is missing.
    pub fn summary(&self) -> String {
        if self.verified() {
            return format!("{} publishes SPF, DKIM and DMARC", self.domain);
        }
        let (unanswered, missing) = (self.unanswered(), self.missing());
        let missing_part = format!("{} is missing {}", self.domain, missing.join(", "));
        if unanswered.is_empty() {
            return missing_part;
        }
        let mut line = format!(
            "DNS did not answer for {} of {}: not checked, try again in a minute",
            unanswered.join(", "),
            self.domain
        );
        if !missing.is_empty() {
            line = format!("{missing_part}; {line}");
        }
        line
    }
}

fn unanswered(name: &'static str, error: &str) -> Check {
    Check {
        name,
        passed: false,
        record: None,
        detail: format!("DNS did not answer ({error}); try again in a minute"),
        answered: false,
    }
}

/// The domain's records, judged for a sender of `provider`.
pub async fn check_domain(dns: &DnsLookup, domain: &str, provider: Provider) -> Report {
    let domain = domain.trim().trim_end_matches('.').to_lowercase();
    let sendgrid = matches!(provider, Provider::SendGridBasic | Provider::SendGridCustom);
    let dkim = if sendgrid {
        check_sendgrid_dkim(dns, &domain).await
    } else {
        let selectors: &[&str] = if provider == Provider::Gmail {
            &["google"]
        } else {
            COMMON_SELECTORS
        };
        check_dkim(dns, &domain, selectors).await
    };
    // SendGrid's automated security publishes SPF on its own return-path subdomain (the `em` CNAME): DKIM records
    // pointing at SendGrid stand for it.
    let spf_by_sendgrid = sendgrid
        && dkim.passed
        && dkim
            .record
            .as_deref()
            .is_some_and(|record| record.contains("sendgrid.net"));
    let spf = check_spf(dns.txt(&domain).await, sendgrid, spf_by_sendgrid);
    let dmarc = check_dmarc(dns.txt(&format!("_dmarc.{domain}")).await);
    Report {
        domain,
        checks: vec![spf, dkim, dmarc],
    }
}

fn check_spf(records: Records, sendgrid: bool, covered_by_sendgrid: bool) -> Check {
    let records = match records {
        Ok(records) => records,
        Err(error) => return unanswered("SPF", &error),
    };
    let spf: Vec<&String> = records
        .iter()
        .filter(|record| record.to_lowercase().starts_with("v=spf1"))
        .collect();
    let (passed, detail) = match spf.as_slice() {
        [] if covered_by_sendgrid => (
            true,
            "SendGrid's automated security covers SPF on its return-path subdomain".to_string(),
        ),
        [] => (
            false,
            if sendgrid {
                "No SPF record: add a TXT record \"v=spf1 include:sendgrid.net ~all\" at the domain".to_string()
            } else {
                "No SPF record: add a TXT record \"v=spf1 include:<your mail provider> ~all\" at the domain"
                    .to_string()
            },
        ),
        [record] if sendgrid && !covered_by_sendgrid && !record.contains("include:sendgrid.net") => (
            false,
            "The SPF record does not include SendGrid: add include:sendgrid.net to it".to_string(),
        ),
        [_] => (true, "SPF record found".to_string()),
        _ => (
            false,
            "The domain publishes more than one SPF record, which receivers treat as an error: merge them into one"
                .to_string(),
        ),
    };
    Check {
        name: "SPF",
        passed,
        record: spf.first().map(|record| record.to_string()),
        detail,
        answered: true,
    }
}

/// SendGrid's domain authentication: CNAMEs `s1._domainkey` and `s2._domainkey` (or their TXT keys).
async fn check_sendgrid_dkim(dns: &DnsLookup, domain: &str) -> Check {
    let mut found = Vec::new();
    for selector in ["s1", "s2"] {
        match dkim_record(dns, domain, selector).await {
            Ok(Some(record)) => found.push(record),
            Ok(None) => {}
            Err(error) => return unanswered("DKIM", &error),
        }
    }
    if found.len() == 2 {
        Check {
            name: "DKIM",
            passed: true,
            record: found.first().cloned(),
            detail: "SendGrid's DKIM keys s1 and s2 are published".into(),
            answered: true,
        }
    } else {
        Check {
            name: "DKIM",
            passed: false,
            record: found.first().cloned(),
            detail: format!(
                "Add the CNAME records s1._domainkey.{domain} and s2._domainkey.{domain} that SendGrid shows under \
                 Settings → Sender Authentication"
            ),
            answered: true,
        }
    }
}

async fn check_dkim(dns: &DnsLookup, domain: &str, selectors: &[&str]) -> Check {
    for selector in selectors {
        match dkim_record(dns, domain, selector).await {
            Ok(Some(record)) => {
                return Check {
                    name: "DKIM",
                    passed: true,
                    record: Some(record),
                    detail: format!("DKIM key found for selector {selector}"),
                    answered: true,
                };
            }
            Ok(None) => {}
            Err(error) => return unanswered("DKIM", &error),
        }
    }
    Check {
        name: "DKIM",
        passed: false,
        record: None,
        detail: format!(
            "No DKIM key at the usual selectors ({}): publish the key your mail provider gives you at \
             <selector>._domainkey.{domain}",
            selectors.join(", ")
        ),
        answered: true,
    }
}

/// A DKIM key at `selector`: a CNAME to the provider's key, or a TXT record with a public key.
async fn dkim_record(
    dns: &DnsLookup,
    domain: &str,
    selector: &str,
) -> Result<Option<String>, String> {
    let name = format!("{selector}._domainkey.{domain}");
    if let Some(target) = dns.cname(&name).await?.into_iter().next() {
        return Ok(Some(target));
    }
    Ok(dns
        .txt(&name)
        .await?
        .into_iter()
        .find(|record| record.contains("p=")))
}

fn check_dmarc(records: Records) -> Check {
    let records = match records {
        Ok(records) => records,
        Err(error) => return unanswered("DMARC", &error),
    };
    match records
        .into_iter()
        .find(|record| record.to_lowercase().starts_with("v=dmarc1"))
    {
        Some(record) => {
            let policy = record
                .split(';')
                .map(str::trim)
                .find_map(|tag| tag.strip_prefix("p="))
                .unwrap_or("none")
                .to_string();
            Check {
                name: "DMARC",
                passed: true,
                detail: format!("DMARC policy {policy}"),
                record: Some(record),
                answered: true,
            }
        }
        None => Check {
            name: "DMARC",
            passed: false,
            record: None,
            detail: "No DMARC record: add a TXT record \"v=DMARC1; p=none; rua=mailto:<you>\" at _dmarc of the domain"
                .into(),
            answered: true,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::config::CrawlerSettings;
    use crate::testing::{DnsAnswer, fake_dns};

    fn lookup(dns: std::net::SocketAddr) -> DnsLookup {
        DnsLookup::new(&CrawlerSettings {
            dns_servers: vec![dns.to_string()],
            restrict_to_allow_hosts: true,
            ..CrawlerSettings::default()
        })
    }

    #[tokio::test]
    async fn a_domain_authenticated_for_sendgrid_passes_all_three() {
        let dns = fake_dns(vec![
            (
                "brand.example",
                DnsAnswer::Txt(vec![
                    "google-site-verification=x",
                    "v=spf1 include:sendgrid.net ~all",
                ]),
            ),
            (
                "s1._domainkey.brand.example",
                DnsAnswer::Cname("s1.domainkey.u1.wl1.sendgrid.net."),
            ),
            (
                "s2._domainkey.brand.example",
                DnsAnswer::Cname("s2.domainkey.u1.wl1.sendgrid.net."),
            ),
            (
                "_dmarc.brand.example",
                DnsAnswer::Txt(vec!["v=DMARC1; p=quarantine; rua=mailto:d@brand.example"]),
            ),
        ])
        .await;
        let report = check_domain(&lookup(dns), "Brand.Example", Provider::SendGridCustom).await;
        assert_eq!(report.domain, "brand.example");
        assert!(report.verified(), "{report:?}");
        assert_eq!(report.checks[2].detail, "DMARC policy quarantine");
        assert_eq!(
            report.summary(),
            "brand.example publishes SPF, DKIM and DMARC"
        );
    }

    #[tokio::test]
    async fn what_is_missing_is_named_with_the_record_to_add() {
        let dns = fake_dns(vec![
            (
                "bare.example",
                DnsAnswer::Txt(vec!["v=spf1 include:_spf.google.com ~all"]),
            ),
            (
                "s1._domainkey.bare.example",
                DnsAnswer::Cname("s1.domainkey.u1.wl1.sendgrid.net."),
            ),
            (
                "twice.example",
                DnsAnswer::Txt(vec!["v=spf1 a ~all", "v=spf1 mx ~all"]),
            ),
        ])
        .await;
        let dns = lookup(dns);
        let report = check_domain(&dns, "bare.example", Provider::SendGridCustom).await;
        assert_eq!(report.missing(), vec!["SPF", "DKIM", "DMARC"]);
        assert!(report.checks[0].detail.contains("include:sendgrid.net"));
        assert!(
            report.checks[1]
                .detail
                .contains("s2._domainkey.bare.example")
        );
        assert_eq!(report.summary(), "bare.example is missing SPF, DKIM, DMARC");
        // For an SMTP sender the Google SPF is fine; the DKIM selector is searched for.
        let smtp = check_domain(&dns, "bare.example", Provider::Smtp).await;
        assert_eq!(smtp.missing(), vec!["DMARC"]);
        assert_eq!(smtp.checks[1].detail, "DKIM key found for selector s1");
        let twice = check_domain(&dns, "twice.example", Provider::Smtp).await;
        assert!(twice.checks[0].detail.contains("more than one SPF record"));
    }

    #[tokio::test]
    async fn sendgrid_automated_security_stands_for_spf_and_silence_is_not_a_pass() {
        let dns = fake_dns(vec![
            ("auto.example", DnsAnswer::Txt(vec!["some-other-record"])),
            (
                "s1._domainkey.auto.example",
                DnsAnswer::Cname("s1.domainkey.u2.wl2.sendgrid.net."),
            ),
            (
                "s2._domainkey.auto.example",
                DnsAnswer::Cname("s2.domainkey.u2.wl2.sendgrid.net."),
            ),
            (
                "_dmarc.auto.example",
                DnsAnswer::Txt(vec!["v=DMARC1; p=none"]),
            ),
            ("slow.example", DnsAnswer::Silent),
        ])
        .await;
        let dns = lookup(dns);
        assert!(
            check_domain(&dns, "auto.example", Provider::SendGridBasic)
                .await
                .verified()
        );
        let slow = check_domain(&dns, "slow.example", Provider::Smtp).await;
        assert!(!slow.verified());
        assert!(
            slow.checks[0].detail.starts_with("DNS did not answer"),
            "{slow:?}"
        );
        // Issue 83.7: silence is neither a pass nor a missing record (only the domain's own name is silent here;
        // its DKIM and DMARC names answer that they have none).
        assert_eq!(slow.unanswered(), vec!["SPF"]);
        assert_eq!(slow.missing(), vec!["DKIM", "DMARC"]);
        assert_eq!(
            slow.summary(),
            "slow.example is missing DKIM, DMARC; DNS did not answer for SPF of slow.example: not checked, try again \
             in a minute"
        );
    }
}
