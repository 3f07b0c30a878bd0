//! Outbound connections to hosts that users name (websites to crawl, SMTP and IMAP servers): the address policy that
//! keeps them off loopback, private, link-local, shared and metadata addresses unless the operator lists a host, and
//! a deadline on the name lookup and the connection. Every address a name resolves to must pass, and the connection
//! goes to the address that was checked, so a rebinding answer cannot slip through.

use std::net::{IpAddr, SocketAddr};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::net::TcpStream;

crate::text_enum! {
    /// How a mail connection (SMTP or IMAP) is protected: not at all, upgraded with STARTTLS, or TLS from the start.
    #[derive(Default)]
    pub enum Security ("connection security") {
        None = "none",
        #[default]
        StartTls = "starttls",
        Tls = "tls",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error(
        "{0} is a loopback, private or link-local address, which this instance does not connect to for users"
    )]
    Blocked(String),
    #[error("{0} could not be found: {1}")]
    Lookup(String, String),
    #[error("{0} did not answer within {1} seconds")]
    TimedOut(String, u64),
    #[error("{0} could not be reached: {1}")]
    Unreachable(String, String),
}

/// Which hosts outbound connections may reach besides public addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    /// `host:port` or CIDR entries the operator allows although they are not public (a local MTA, test servers).
    pub allow_hosts: Vec<String>,
    /// Reach nothing but `allow_hosts`, refused before any lookup: for tests and closed networks.
    pub restrict: bool,
}

impl AddressPolicy {
    /// The address to connect to for `host:port`, after the lookup (bounded by `timeout`) and the policy.
    pub async fn resolve(
        &self,
        host: &str,
        port: u16,
        timeout: Duration,
    ) -> Result<SocketAddr, NetError> {
        let host = host.trim_matches(['[', ']']);
        let host_port = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        if self.restrict && !self.listed(&host_port, host) {
            return Err(NetError::Blocked(host.to_string()));
        }
        let addresses: Vec<SocketAddr> =
            tokio::time::timeout(timeout, tokio::net::lookup_host(&host_port))
                .await
                .map_err(|_| NetError::TimedOut(host.to_string(), timeout.as_secs()))?
                .map_err(|error| NetError::Lookup(host.to_string(), error.to_string()))?
                .collect();
        let first = *addresses
            .first()
            .ok_or_else(|| NetError::Lookup(host.to_string(), "no address".into()))?;
        if addresses
            .iter()
            .all(|address| !is_forbidden(address.ip()) || self.allowed(&host_port, address.ip()))
        {
            Ok(first)
        } else {
            Err(NetError::Blocked(host.to_string()))
        }
    }

    /// A TCP connection (TCP_NODELAY set) to the checked address of `host:port`, within `timeout` for the lookup
    /// and again for the connection.
    pub async fn connect(
        &self,
        host: &str,
        port: u16,
        timeout: Duration,
    ) -> Result<TcpStream, NetError> {
        let address = self.resolve(host, port, timeout).await?;
        let stream = tokio::time::timeout(timeout, TcpStream::connect(address))
            .await
            .map_err(|_| NetError::TimedOut(format!("{host}:{port}"), timeout.as_secs()))?
            .map_err(|error| NetError::Unreachable(format!("{host}:{port}"), error.to_string()))?;
        stream.set_nodelay(true).ok();
        Ok(stream)
    }

    /// Whether the host itself is in the allow list (no DNS: the name as written, or a literal address).
    fn listed(&self, host_port: &str, host: &str) -> bool {
        self.names(host_port) || host.parse::<IpAddr>().is_ok_and(|ip| self.permits(ip))
    }

    /// Whether `host:port` is in the allow list as written.
    fn names(&self, host_port: &str) -> bool {
        self.allow_hosts
            .iter()
            .any(|entry| entry.eq_ignore_ascii_case(host_port))
    }

    /// Whether an address not public is in the allow list by network (any port).
    pub fn permits(&self, ip: IpAddr) -> bool {
        self.allow_hosts.iter().any(|entry| {
            entry
                .parse::<ipnet::IpNet>()
                .is_ok_and(|network| network.contains(&ip))
        })
    }

    fn allowed(&self, host_port: &str, ip: IpAddr) -> bool {
        self.names(host_port) || self.permits(ip)
    }
}

/// Loopback, private, link-local (including cloud metadata at 169.254.169.254), shared, multicast, unspecified.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || (a == 100 && (64..128).contains(&b))
                || a == 0
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_forbidden(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
        }
    }
}

/// The TLS settings every outbound client shares (crawler, SMTP, IMAP): building them reads the system's certificate store, which costs more
/// CPU than fetching a page, so it happens once per process (None: reqwest builds its own).
pub(crate) fn tls_config() -> Option<rustls::ClientConfig> {
    use rustls_platform_verifier::BuilderVerifierExt;
    static CONFIG: OnceLock<Option<rustls::ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            // reqwest's own provider; named, because the dependency tree enables more than one.
            let provider = std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider());
            rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .and_then(|builder| builder.with_platform_verifier())
                .map(|builder| builder.with_no_client_auth())
                .ok()
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_and_local_addresses_are_forbidden() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "224.0.0.1",
        ] {
            assert!(is_forbidden(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "2606:4700::1111", "8.8.8.8"] {
            assert!(!is_forbidden(ip.parse().unwrap()), "{ip}");
        }
    }

    #[tokio::test]
    async fn private_addresses_are_refused_unless_listed_and_restriction_refuses_before_lookup() {
        let open = AddressPolicy::default();
        let second = Duration::from_secs(1);
        for host in [
            "127.0.0.1",
            "10.1.2.3",
            "169.254.169.254",
            "[::1]",
            "0.0.0.0",
            "100.64.0.1",
        ] {
            assert_eq!(
                open.resolve(host, 25, second).await,
                Err(NetError::Blocked(host.trim_matches(['[', ']']).to_string())),
                "{host}"
            );
        }
        let listed = AddressPolicy {
            allow_hosts: vec!["127.0.0.1/32".into(), "10.9.9.9:2525".into()],
            restrict: false,
        };
        assert!(listed.resolve("127.0.0.1", 25, second).await.is_ok());
        assert!(listed.resolve("10.9.9.9", 2525, second).await.is_ok());
        assert!(listed.resolve("10.9.9.9", 25, second).await.is_err());
        let restricted = AddressPolicy {
            allow_hosts: vec!["127.0.0.1/32".into()],
            restrict: true,
        };
        assert_eq!(
            restricted.resolve("smtp.example.com", 25, second).await,
            Err(NetError::Blocked("smtp.example.com".into()))
        );
    }
}
