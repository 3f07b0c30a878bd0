//! Fetching a business's website for enrichment: same site only, robots.txt respected, at most a few pages of a
//! bounded size and time, and never a loopback, private, link-local or metadata address, checked after DNS
//! resolution and again on every redirect (the connection is pinned to the checked address).

use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;

use std::time::Duration;

use url::Url;

use crate::discovery::enrich::{FoundEmail, SocialProfile, extract, rank, same_site};
use crate::discovery::facts::{Page, STORY_WORDS};
use crate::platform::config::CrawlerSettings;
use crate::platform::net::{AddressPolicy, NetError};

pub const USER_AGENT: &str = concat!(
    "OutreachBot/",
    env!("CARGO_PKG_VERSION"),
    " (+business contact lookup)"
);
const ROBOTS_AGENT: &str = "outreachbot";
const MAX_REDIRECTS: usize = 5;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CrawlError {
    #[error("{0} is not a web address")]
    BadUrl(String),
    #[error("{0} resolves to a private or local address, which the crawler never fetches")]
    Blocked(String),
    #[error("{0}: {1}")]
    Fetch(String, String),
}

/// What a website gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CrawlResult {
    pub emails: Vec<FoundEmail>,
    pub social: Vec<SocialProfile>,
    pub pages: Vec<String>,
    /// The pages read, as the fact reader sees them (home page first).
    pub read: Vec<Page>,
}

#[derive(Debug, Clone)]
pub struct Crawler {
    settings: CrawlerSettings,
}

impl Crawler {
    pub fn new(settings: CrawlerSettings) -> Self {
        Self { settings }
    }

    /// Crawls the site: robots.txt, the home page, then its contact pages (or guessed ones), then the pages of its
    /// story, news and menu it links to, up to the page limit.
    pub async fn crawl(&self, website: &str) -> Result<CrawlResult, CrawlError> {
        let home = site_url(website)?;
        let robots = self.robots(&home).await;
        let mut queue: VecDeque<Url> = VecDeque::from([home.clone()]);
        let mut seen: HashSet<String> = HashSet::from([home.to_string()]);
        let (mut result, mut guessed) = (CrawlResult::default(), false);
        while let Some(url) = queue.pop_front() {
            if result.pages.len() >= self.settings.max_pages {
                break;
            }
            if !robots.allows(url.path()) {
                continue;
            }
            let html = match self.fetch(&url).await {
                Ok(html) => html,
                // Without its home page there is no site to read; other pages may simply not exist.
                Err(error) if url == home => return Err(error),
                Err(_) => continue,
            };
            result.pages.push(url.to_string());
            let page = Page::parse(&html, url.as_str());
            let findings = extract(&html, &url);
            result.emails.extend(findings.emails);
            for profile in findings.social {
                if !result.social.iter().any(|known| {
                    known.platform == profile.platform && known.handle == profile.handle
                }) {
                    result.social.push(profile);
                }
            }
            for page in findings.contact_pages {
                if same_site(&home, &page) && seen.insert(page.to_string()) {
                    queue.push_back(page);
                }
            }
            if !guessed && url == home {
                guessed = true;
                for path in ["/contact", "/about"] {
                    if let Ok(page) = home.join(path)
                        && seen.insert(page.to_string())
                    {
                        queue.push_back(page);
                    }
                }
                // After the contact pages, the pages that tell the business's story, news and menu.
                for (href, text) in &page.links {
                    let Ok(mut target) = url.join(href) else {
                        continue;
                    };
                    target.set_fragment(None);
                    let words = format!("{} {}", target.path(), text).to_lowercase();
                    if same_site(&home, &target)
                        && STORY_WORDS.iter().any(|word| words.contains(word))
                        && seen.insert(target.to_string())
                    {
                        queue.push_back(target);
                    }
                }
            }
            result.read.push(page);
        }
        result.emails = rank(result.emails, &home);
        Ok(result)
    }

    /// GETs one HTML page, following redirects by hand so each hop is checked; the body is cut at the size limit.
    pub async fn fetch(&self, url: &Url) -> Result<String, CrawlError> {
        let mut current = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let address = self.checked_address(&current).await?;
            let host = current.host_str().unwrap_or_default().to_string();
            let fetch_error =
                |error: reqwest::Error| CrawlError::Fetch(current.to_string(), error.to_string());
            let mut builder = reqwest::Client::builder();
            if let Some(tls) = crate::platform::net::tls_config() {
                builder = builder.tls_backend_preconfigured(tls);
            }
            let client = builder
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(
                    self.settings.page_timeout_seconds.max(1),
                ))
                .user_agent(USER_AGENT)
                .resolve(&host, address)
                .build()
                .map_err(fetch_error)?;
            let mut response = client
                .get(current.clone())
                .send()
                .await
                .map_err(fetch_error)?;
            if response.status().is_redirection() {
                let location = response
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|value| value.to_str().ok());
                let next = location.and_then(|location| current.join(location).ok());
                current = next.ok_or_else(|| {
                    CrawlError::Fetch(current.to_string(), "a redirect without a location".into())
                })?;
                continue;
            }
            if !response.status().is_success() {
                return Err(CrawlError::Fetch(
                    current.to_string(),
                    response.status().to_string(),
                ));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response.chunk().await.map_err(fetch_error)? {
                let room = self.settings.max_page_bytes.saturating_sub(body.len());
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
                if body.len() >= self.settings.max_page_bytes {
                    break;
                }
            }
            return Ok(String::from_utf8_lossy(&body).into_owned());
        }
        Err(CrawlError::Fetch(
            url.to_string(),
            "too many redirects".into(),
        ))
    }

    /// Resolves the URL's host and returns an address the crawler may connect to (`net::AddressPolicy`).
    async fn checked_address(&self, url: &Url) -> Result<SocketAddr, CrawlError> {
        let host = url
            .host_str()
            .ok_or_else(|| CrawlError::BadUrl(url.to_string()))?;
        let port = url
            .port_or_known_default()
            .ok_or_else(|| CrawlError::BadUrl(url.to_string()))?;
        let policy = AddressPolicy {
            allow_hosts: self.settings.allow_hosts.clone(),
            restrict: self.settings.restrict_to_allow_hosts,
        };
        let timeout = Duration::from_secs(self.settings.page_timeout_seconds.max(1));
        policy
            .resolve(host, port, timeout)
            .await
            .map_err(|error| match error {
                NetError::Blocked(_) => CrawlError::Blocked(host.to_string()),
                other => CrawlError::Fetch(url.to_string(), other.to_string()),
            })
    }

    async fn robots(&self, home: &Url) -> Robots {
        let Ok(url) = home.join("/robots.txt") else {
            return Robots::default();
        };
        match self.fetch(&url).await {
            Ok(text) => Robots::parse(&text),
            Err(_) => Robots::default(),
        }
    }
}

/// `example.fi` or `http://example.fi/path` → the site's URL.
pub fn site_url(website: &str) -> Result<Url, CrawlError> {
    let text = website.trim();
    let with_scheme = if text.contains("://") {
        text.to_string()
    } else {
        format!("https://{text}")
    };
    let url = Url::parse(&with_scheme).map_err(|_| CrawlError::BadUrl(website.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(CrawlError::BadUrl(website.to_string()));
    }
    Ok(url)
}

/// (allow, path prefix) rules of one robots.txt group.
type Rules = Vec<(bool, String)>;

/// The rules of robots.txt that apply to this crawler (its own group, else `*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Robots {
    rules: Rules,
}

impl Robots {
    pub fn parse(text: &str) -> Self {
        let mut groups: Vec<(Vec<String>, Rules)> = Vec::new();
        let mut in_agents = false;
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or_default().trim();
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let (key, value) = (key.trim().to_lowercase(), value.trim().to_string());
            match key.as_str() {
                "user-agent" => {
                    if !in_agents {
                        groups.push((Vec::new(), Vec::new()));
                    }
                    in_agents = true;
                    if let Some(group) = groups.last_mut() {
                        group.0.push(value.to_lowercase());
                    }
                }
                "allow" | "disallow" => {
                    in_agents = false;
                    if let Some(group) = groups.last_mut()
                        && !(key == "disallow" && value.is_empty())
                    {
                        group.1.push((key == "allow", value));
                    }
                }
                _ => {}
            }
        }
        let own = groups.iter().find(|(agents, _)| {
            agents
                .iter()
                .any(|agent| ROBOTS_AGENT.starts_with(agent.as_str()) && agent != "*")
        });
        let any = groups
            .iter()
            .find(|(agents, _)| agents.iter().any(|agent| agent == "*"));
        Robots {
            rules: own
                .or(any)
                .map(|(_, rules)| rules.clone())
                .unwrap_or_default(),
        }
    }

    /// The longest matching rule decides; no rule means allowed.
    pub fn allows(&self, path: &str) -> bool {
        self.rules
            .iter()
            .filter(|(_, prefix)| path.starts_with(prefix.as_str()))
            .max_by_key(|(allow, prefix)| (prefix.len(), *allow))
            .is_none_or(|(allow, _)| *allow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_rules_for_this_crawler() {
        let robots = Robots::parse(
            "User-agent: *\nDisallow: /private\nAllow: /private/contact\n\nUser-agent: Googlebot\nDisallow: /\n",
        );
        assert!(robots.allows("/contact"));
        assert!(!robots.allows("/private/team"));
        assert!(robots.allows("/private/contact"));
        let own = Robots::parse("User-agent: OutreachBot\nDisallow: /\nUser-agent: *\nDisallow:\n");
        assert!(!own.allows("/contact"));
        assert!(Robots::parse("").allows("/anything"));
    }

    #[test]
    fn websites_become_urls() {
        assert_eq!(
            site_url("bakery.fi").unwrap().as_str(),
            "https://bakery.fi/"
        );
        assert_eq!(
            site_url("http://bakery.fi/fi/").unwrap().as_str(),
            "http://bakery.fi/fi/"
        );
        assert!(site_url("javascript:alert(1)").is_err());
    }
}
