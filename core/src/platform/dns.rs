//! DNS questions: MX verdicts for the addresses the crawler finds (does the domain take mail? `deliverable` when it
//! publishes MX records, `no_mx` when it has none, does not exist or publishes the RFC 7505 "null MX", `unknown`
//! when DNS could not be asked or did not answer; a verdict informs the user, it never discards an address), and
//! the TXT and CNAME records a sender's domain authentication is read from.

use std::net::SocketAddr;
use std::time::Duration;

use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{RData, RecordType};
use hickory_resolver::{Resolver, TokioResolver};

use crate::platform::config::CrawlerSettings;

crate::text_enum! {
    /// What the MX records of an address's domain say about delivering to it.
    pub enum Verdict ("MX verdict") {
        Deliverable = "deliverable",
        NoMx = "no_mx",
        Unknown = "unknown",
    }
}

/// Asks the configured DNS servers (`crawler.dns_servers`), else the system's. A crawler restricted to its allowed
/// hosts asks no DNS server but the configured ones.
#[derive(Clone)]
pub struct DnsLookup {
    resolver: Option<TokioResolver>,
}

impl DnsLookup {
    pub fn new(settings: &CrawlerSettings) -> Self {
        let resolver = Self::resolver(settings).unwrap_or_else(|error| {
            tracing::warn!(%error, "no DNS resolver: MX verdicts will be unknown");
            None
        });
        Self { resolver }
    }

    fn resolver(settings: &CrawlerSettings) -> Result<Option<TokioResolver>, String> {
        let mut builder = if settings.dns_servers.is_empty() {
            if settings.restrict_to_allow_hosts {
                return Ok(None);
            }
            Resolver::builder_tokio().map_err(|error| error.to_string())?
        } else {
            let mut servers = Vec::new();
            for entry in &settings.dns_servers {
                let address: SocketAddr = entry
                    .parse()
                    .map_err(|_| format!("crawler.dns_servers: {entry} is not ip:port"))?;
                let mut server = NameServerConfig::udp_and_tcp(address.ip());
                for connection in &mut server.connections {
                    connection.port = address.port();
                }
                servers.push(server);
            }
            Resolver::builder_with_config(
                ResolverConfig::from_name_servers(servers),
                TokioRuntimeProvider::default(),
            )
        };
        let options = builder.options_mut();
        options.timeout = Duration::from_secs(3);
        options.attempts = 1;
        builder.build().map(Some).map_err(|error| error.to_string())
    }

    /// The verdict for the domain of `address` (or a bare domain).
    pub async fn verdict(&self, address: &str) -> Verdict {
        let domain = address.rsplit('@').next().unwrap_or(address);
        let Some(resolver) = &self.resolver else {
            return Verdict::Unknown;
        };
        // A trailing dot: the name is absolute, no search domains are tried.
        match resolver.mx_lookup(format!("{domain}.")).await {
            Ok(lookup) => {
                let exchanges: Vec<String> = lookup
                    .answers()
                    .iter()
                    .filter_map(|record| match &record.data {
                        RData::MX(mx) => Some(mx.exchange.to_ascii()),
                        _ => None,
                    })
                    .collect();
                if exchanges.iter().any(|exchange| exchange != ".") {
                    Verdict::Deliverable
                } else {
                    Verdict::NoMx
                }
            }
            Err(error) if error.is_no_records_found() || error.is_nx_domain() => Verdict::NoMx,
            Err(error) => {
                tracing::info!(%domain, %error, "MX lookup failed");
                Verdict::Unknown
            }
        }
    }
}

/// Records of one type at a name: none when the name or the type does not exist, an error when DNS did not answer.
pub type Records = Result<Vec<String>, String>;

impl DnsLookup {
    async fn records(&self, name: &str, kind: RecordType) -> Records {
        let Some(resolver) = &self.resolver else {
            return Err("no DNS server is configured".into());
        };
        match resolver.lookup(format!("{name}."), kind).await {
            Ok(lookup) => Ok(lookup
                .answers()
                .iter()
                .filter_map(|record| match &record.data {
                    RData::TXT(txt) => Some(
                        txt.txt_data
                            .iter()
                            .map(|part| String::from_utf8_lossy(part))
                            .collect::<String>(),
                    ),
                    RData::CNAME(target) => Some(target.0.to_ascii()),
                    _ => None,
                })
                .collect()),
            Err(error) if error.is_no_records_found() || error.is_nx_domain() => Ok(Vec::new()),
            Err(error) => Err(error.to_string()),
        }
    }

    /// The TXT strings at `name`, each record's parts joined.
    pub async fn txt(&self, name: &str) -> Records {
        self.records(name, RecordType::TXT).await
    }

    /// The CNAME target of `name`, if it has one.
    pub async fn cname(&self, name: &str) -> Records {
        self.records(name, RecordType::CNAME).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{DnsAnswer, fake_dns};

    fn checker(dns: SocketAddr) -> DnsLookup {
        DnsLookup::new(&CrawlerSettings {
            dns_servers: vec![dns.to_string()],
            restrict_to_allow_hosts: true,
            ..CrawlerSettings::default()
        })
    }

    #[tokio::test]
    async fn verdicts_follow_the_domains_mx_records() {
        let dns = fake_dns(vec![
            (
                "bakery.example",
                DnsAnswer::Exchanges(vec!["mx1.mail.example.", "mx2.mail.example."]),
            ),
            ("nomail.example", DnsAnswer::NullMx),
            ("slow.example", DnsAnswer::Silent),
        ])
        .await;
        let mx = checker(dns);
        assert_eq!(
            mx.verdict("hello@bakery.example").await,
            Verdict::Deliverable
        );
        assert_eq!(mx.verdict("bakery.example").await, Verdict::Deliverable);
        assert_eq!(mx.verdict("info@nomail.example").await, Verdict::NoMx);
        assert_eq!(mx.verdict("info@gone.example").await, Verdict::NoMx);
        assert_eq!(mx.verdict("info@slow.example").await, Verdict::Unknown);
    }

    #[tokio::test]
    async fn a_restricted_crawler_without_dns_servers_asks_nobody() {
        let mx = DnsLookup::new(&CrawlerSettings {
            restrict_to_allow_hosts: true,
            ..CrawlerSettings::default()
        });
        assert!(mx.resolver.is_none());
        assert_eq!(mx.verdict("someone@example.com").await, Verdict::Unknown);
    }
}
