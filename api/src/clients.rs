//! Who is calling: the host names this server answers to (DNS rebinding), loopback callers (the local sign-in),
//! and per-client rate limits of the public write endpoints.

use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::http::{HeaderMap, header};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use outreach_core::Settings;

/// The names this server answers to, lowercased: the public URL's host (with and without its default port), the
/// listen address, and for a loopback listener the loopback names with its port.
#[derive(Debug, Clone)]
pub struct OwnHosts {
    names: HashSet<String>,
    public_origin: String,
}

impl OwnHosts {
    pub fn of(settings: &Settings) -> Self {
        let mut names = HashSet::new();
        let public = settings.http.public_url();
        let mut public_origin = public.clone();
        if let Ok(url) = url::Url::parse(&public)
            && let Some(host) = url.host_str()
        {
            public_origin = url.origin().ascii_serialization();
            if let Some(port) = url.port_or_known_default() {
                names.insert(format!("{host}:{port}"));
            }
            if url.port().is_none() {
                names.insert(host.to_string());
            }
        }
        let listen: SocketAddr = settings.http.listen;
        names.insert(listen.to_string());
        if listen.ip().is_loopback() {
            for name in ["localhost", "127.0.0.1", "[::1]"] {
                names.insert(format!("{name}:{}", listen.port()));
            }
        }
        Self {
            names,
            public_origin,
        }
    }

    pub fn contains(&self, host: &str) -> bool {
        // Every request but a health check asks: a lowercase name (nearly all) is looked up without a copy.
        if host.bytes().any(|byte| byte.is_ascii_uppercase()) {
            self.names.contains(&host.to_ascii_lowercase())
        } else {
            self.names.contains(host)
        }
    }

    /// Our origins: the public URL's, and the one a browser uses for a name of ours it reached us by.
    pub fn is_own_origin(&self, origin: &str, host: &str) -> bool {
        origin == self.public_origin
            || (self.contains(host)
                && (origin.eq_ignore_ascii_case(&format!("http://{host}"))
                    || origin.eq_ignore_ascii_case(&format!("https://{host}"))))
    }
}

/// The request's `Host` header.
pub fn host(headers: &HeaderMap) -> &str {
    headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
}

/// Whether the request reached us by a loopback name or address (`localhost`, `127.0.0.1`, `[::1]`).
pub fn is_loopback_host(headers: &HeaderMap) -> bool {
    let host = host(headers).to_ascii_lowercase();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host.as_str(),
    };
    name == "localhost"
        || name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Per-client limits of the public write endpoints.
pub type ClientLimiter = Arc<DefaultKeyedRateLimiter<IpAddr>>;

pub fn client_limiter(per_minute: u32) -> ClientLimiter {
    let quota = Quota::per_minute(NonZeroU32::new(per_minute.max(1)).expect("at least one"));
    Arc::new(RateLimiter::keyed(quota))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn hosts(listen: &str, public: &str) -> OwnHosts {
        let mut settings = Settings::default();
        settings.http.listen = listen.parse().unwrap();
        settings.http.public_url = public.into();
        OwnHosts::of(&settings)
    }

    #[test]
    fn our_names_are_the_public_host_and_the_listener() {
        let own = hosts("127.0.0.1:8080", "https://Outreach.Example.com/");
        for name in [
            "outreach.example.com",
            "outreach.example.com:443",
            "OUTREACH.example.com",
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
        ] {
            assert!(own.contains(name), "{name}");
        }
        for name in [
            "evil.example:8080",
            "outreach.example.com:8080",
            "localhost:9999",
            "",
        ] {
            assert!(!own.contains(name), "{name}");
        }
        let public_port = hosts("0.0.0.0:8080", "http://box.lan:8080");
        assert!(public_port.contains("box.lan:8080"));
        assert!(!public_port.contains("box.lan"));
        assert!(
            !public_port.contains("localhost:8080"),
            "not a loopback listener"
        );
    }

    #[test]
    fn origins_are_the_public_one_or_a_name_of_ours() {
        let own = hosts("127.0.0.1:8080", "https://outreach.example.com");
        assert!(own.is_own_origin("https://outreach.example.com", "127.0.0.1:8080"));
        assert!(own.is_own_origin("http://localhost:8080", "localhost:8080"));
        assert!(!own.is_own_origin("http://evil.example:8080", "evil.example:8080"));
        assert!(!own.is_own_origin("null", "127.0.0.1:8080"));
    }

    #[test]
    fn loopback_hosts_are_recognised_with_or_without_a_port() {
        let with = |host: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
            is_loopback_host(&headers)
        };
        assert!(
            with("localhost:8080") && with("127.0.0.1") && with("[::1]:80") && with("127.9.9.9:1")
        );
        assert!(
            !with("outreach.example.com")
                && !with("10.0.0.1:8080")
                && !with("localhost.evil.example")
        );
    }
}
