//! Settings: compiled defaults, then `outreach.toml`, then `OUTREACH_<SECTION>__<KEY>` environment variables.
//! Unknown keys stop the start with an error naming the key; secrets never appear in `Debug` output.

use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::platform::invalid::Invalid;
use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Deserializer, Serialize};

mod deliverability;
pub use deliverability::{DeliverabilitySettings, VariantSettings};

/// A value that must never be logged. `Debug` prints `[redacted]`.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("\"\"")
        } else {
            f.write_str("[redacted]")
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub database: DatabaseSettings,
    pub http: HttpSettings,
    pub metrics: MetricsSettings,
    pub log: LogSettings,
    pub google: GoogleSettings,
    pub auth: AuthSettings,
    pub accounts: AccountSettings,
    pub security: SecuritySettings,
    pub queue: QueueSettings,
    pub scheduler: SchedulerSettings,
    pub instance: InstanceSettings,
    pub ai: AiSettings,
    pub crawler: CrawlerSettings,
    pub search: SearchSettings,
    pub sendgrid: SendGridSettings,
    pub sending: SendingSettings,
    pub deliverability: DeliverabilitySettings,
    pub variants: VariantSettings,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseSettings {
    /// `sqlite://PATH` or `postgres://...`.
    pub url: String,
    /// Pool size on PostgreSQL; SQLite uses at most 4 (it writes one transaction at a time).
    pub max_connections: u32,
}

impl Default for DatabaseSettings {
    fn default() -> Self {
        Self {
            url: "sqlite://./data/outreach.db".into(),
            // Each job kind's worker polls and beats on its own; leave room for them and for the API.
            max_connections: 20,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HttpSettings {
    pub listen: SocketAddr,
    /// The URL users and recipients reach; empty means `http://<listen>`.
    pub public_url: String,
    /// Behind a reverse proxy: the header carrying the client's address (e.g. `x-forwarded-for`); empty means the
    /// connection's peer address.
    pub client_ip_header: String,
    /// Requests per minute one client address may make to public write endpoints (unsubscribe).
    pub public_writes_per_minute: u32,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            listen: ([127, 0, 0, 1], 8080).into(),
            public_url: String::new(),
            client_ip_header: String::new(),
            public_writes_per_minute: 10,
        }
    }
}

impl HttpSettings {
    pub fn public_url(&self) -> String {
        if self.public_url.is_empty() {
            format!("http://{}", self.listen)
        } else {
            self.public_url.trim_end_matches('/').to_string()
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsSettings {
    /// Prometheus listener; empty disables it.
    pub listen: String,
}

impl Default for MetricsSettings {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:9090".into(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogSettings {
    /// `text` or `json`.
    pub format: String,
    /// A tracing filter such as `info` or `outreach=debug,info`.
    pub level: String,
}

impl Default for LogSettings {
    fn default() -> Self {
        Self {
            format: "text".into(),
            level: "info".into(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GoogleSettings {
    pub client_id: String,
    pub client_secret: Secret,
    pub auth_url: String,
    pub token_url: String,
    pub userinfo_url: String,
    /// The Gmail API, for senders connected with the `gmail.send` permission.
    pub gmail_api_url: String,
}

impl Default for GoogleSettings {
    fn default() -> Self {
        Self {
            client_id: String::new(),
            client_secret: Secret::default(),
            auth_url: "https://accounts.google.com/o/oauth2/v2/auth".into(),
            token_url: "https://oauth2.googleapis.com/token".into(),
            userinfo_url: "https://openidconnect.googleapis.com/v1/userinfo".into(),
            gmail_api_url: "https://gmail.googleapis.com".into(),
        }
    }
}

impl GoogleSettings {
    pub fn is_configured(&self) -> bool {
        !self.client_id.is_empty()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuthSettings {
    /// Administrators: always active, and the only users allowed on `/api/admin/*`.
    #[serde(deserialize_with = "comma_list")]
    pub admin_emails: Vec<String>,
    /// While true, new accounts need an invite code and the landing page shows the invite-only variant.
    pub invite_only: bool,
    pub session_days: u32,
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            admin_emails: Vec::new(),
            invite_only: true,
            session_days: 30,
        }
    }
}

impl AuthSettings {
    pub fn is_admin(&self, email: &str) -> bool {
        self.admin_emails
            .iter()
            .any(|admin| admin.eq_ignore_ascii_case(email.trim()))
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AccountSettings {
    /// Length of a free trial granted by an administrator or an invite code.
    pub trial_days: u32,
    /// Monthly email limit during a free trial.
    pub trial_email_limit: i64,
    /// Monthly email limit of administrators.
    pub admin_email_limit: i64,
}

impl Default for AccountSettings {
    fn default() -> Self {
        Self {
            trial_days: 14,
            trial_email_limit: 100,
            admin_email_limit: 2500,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SecuritySettings {
    /// 32+ bytes as hex; generated into `<data dir>/secret.key` when empty.
    pub secret_key: Secret,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QueueSettings {
    /// Jobs one worker process runs at once, per job kind.
    pub concurrency: usize,
    /// Threads of the worker's own runtime (0: one a core). One by default: its jobs wait on the network and the
    /// database most of the time (SQLite's statements run on threads of their own), and on a small machine shared
    /// with the database, the SMTP server or the API, a second thread spent more waking the first than it added
    /// (see Sending in docs/benchmarks.md). More help a large machine whose jobs parse many web pages.
    pub worker_threads: usize,
    /// Jobs fetched per poll; the storage default of 10 caps throughput at a few hundred jobs/s.
    pub batch_size: usize,
    /// Attempts before a job stays failed.
    pub max_attempts: usize,
    /// First retry delay; doubles with each attempt.
    pub retry_base_seconds: u64,
    /// Worker heartbeat; abandoned jobs are re-enqueued after a few missed beats.
    pub heartbeat_seconds: u64,
    /// A worker process's lease on the messages it claims, renewed every third of it; messages of a lease that
    /// expired (a crashed worker) are marked failed within about half of it.
    pub lease_seconds: u64,
}

impl Default for QueueSettings {
    fn default() -> Self {
        Self {
            concurrency: 8,
            worker_threads: 1,
            batch_size: 200,
            max_attempts: 5,
            retry_base_seconds: 30,
            heartbeat_seconds: 5,
            lease_seconds: 60,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SchedulerSettings {
    /// How often the scheduler checks whether a schedule is due.
    pub tick_seconds: u64,
}

impl Default for SchedulerSettings {
    fn default() -> Self {
        Self { tick_seconds: 60 }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SendGridSettings {
    pub api_url: String,
    /// The operator's key, for the basic `prefix@<sending domain>` addresses; branded senders bring their own.
    pub api_key: Secret,
    /// The Event Webhook's verification key (Settings → Mail Settings → Signed Event Webhook), base64 DER.
    pub webhook_public_key: String,
    /// The secret last path segment of the Inbound Parse URL (`/api/webhooks/sendgrid/inbound/<secret>`).
    pub inbound_secret: Secret,
}

impl Default for SendGridSettings {
    fn default() -> Self {
        Self {
            api_url: "https://api.sendgrid.com".into(),
            api_key: Secret::default(),
            webhook_public_key: String::new(),
            inbound_secret: Secret::default(),
        }
    }
}

/// How senders' own servers (SMTP, IMAP) are reached.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SendingSettings {
    /// Hosts a sender may name although they are loopback or private (a local MTA the instance relays through):
    /// `host:port` or CIDR entries, comma-separated in the environment. Everything else must be public.
    #[serde(deserialize_with = "comma_list")]
    pub allow_hosts: Vec<String>,
    /// Seconds each network step may take (lookup, connect, greeting, each command, the message's answer).
    pub timeout_seconds: u64,
    /// Send jobs of one sender that one worker process runs at once: a sender whose server hangs holds at most
    /// this many workers; the others keep sending for everyone else.
    pub sender_concurrency: usize,
    /// A cap on the send jobs of one user's senders together that one worker process runs at once, besides the
    /// fair share every user gets (an even share of `queue.concurrency` among the users sending, with one worker
    /// kept for a user with none); 0: the fair share alone.
    pub user_concurrency: usize,
    /// The sending window of a new campaign, in the user's time zone: "mon-fri 08:00-18:00" (days as mon ... sun,
    /// ranges with '-', lists with ','). Campaigns change theirs in the builder.
    pub default_window: String,
    /// Whether each sender sends at a steady pace (its daily cap spread over the sending window, with jitter)
    /// rather than as fast as its server takes messages.
    pub pacing: bool,
    /// With pacing, the shortest gap between two messages of one sender.
    pub min_gap_seconds: u64,
    /// The most messages of one SMTP connection put on record as handed over in one commit before their content
    /// goes. A window holds what the connection sends while one record commits (from one message for a slow server
    /// up to this), and the next window's record is written while this one goes out; a worker that dies mid-send
    /// leaves the last two windows of each open connection in doubt (marked uncertain, never sent twice).
    pub handover_window: usize,
    /// Seconds a send batch holds its sender's slot before it hands the rest of its messages to a new job at the
    /// back of the queue: a slow server shortens its own batches, and the other jobs take their turn in between.
    pub batch_seconds: u64,
}

impl Default for SendingSettings {
    fn default() -> Self {
        Self {
            allow_hosts: Vec::new(),
            timeout_seconds: 30,
            sender_concurrency: 4,
            user_concurrency: 0,
            default_window: "mon-fri 08:00-18:00".into(),
            pacing: true,
            min_gap_seconds: 20,
            handover_window: 2,
            batch_seconds: 10,
        }
    }
}

impl SendingSettings {
    pub fn policy(&self) -> crate::platform::net::AddressPolicy {
        crate::platform::net::AddressPolicy {
            allow_hosts: self.allow_hosts.clone(),
            restrict: false,
        }
    }

    pub fn timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.timeout_seconds.max(1))
    }

    /// The window new campaigns start from (checked when the settings load).
    pub fn default_window(&self) -> crate::platform::window::SendingWindow {
        self.default_window
            .parse()
            .unwrap_or_else(|_| crate::platform::window::SendingWindow::always())
    }
}

crate::text_enum! {
    /// The names `search.providers` takes.
    pub enum SearchProvider ("search provider") {
        Osm = "osm",
        Google = "google",
        Ai = "ai",
        Directory = "directory",
    }
}

crate::text_enum! {
    /// The names `ai.provider` takes.
    #[derive(Default)]
    pub enum AiProvider ("ai.provider") {
        /// The built-in deterministic writer (an empty setting means it too).
        #[default]
        #[serde(alias = "")]
        Offline = "offline",
        OpenAi = "openai",
        Anthropic = "anthropic",
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchSettings {
    /// Local search providers in order of preference; the offline `directory` is the last resort either way.
    /// `osm` is OpenStreetMap online (Nominatim geocoding, Overpass points of interest; keyless), `google` is
    /// Google Places (New) Text Search (needs `google_places_api_key`), `ai` is the AI web search (needs
    /// `ai.provider = "openai"`; online searches use it whatever this lists).
    #[serde(deserialize_with = "comma_list_of")]
    pub providers: Vec<SearchProvider>,
    pub nominatim_url: String,
    pub overpass_url: String,
    pub google_places_url: String,
    pub google_places_api_key: Secret,
    /// Who to contact about this instance's requests (OSM's usage policies ask for it in the User-Agent).
    pub contact: String,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            providers: vec![SearchProvider::Directory],
            nominatim_url: "https://nominatim.openstreetmap.org".into(),
            overpass_url: "https://overpass-api.de".into(),
            google_places_url: "https://places.googleapis.com".into(),
            google_places_api_key: Secret::default(),
            contact: String::new(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrawlerSettings {
    /// Hosts the crawler may reach although they are loopback or private: `host:port` or CIDR entries
    /// (comma-separated in the environment). Empty in production; tests list their fixture servers.
    #[serde(deserialize_with = "comma_list")]
    pub allow_hosts: Vec<String>,
    /// Pages per website: the home page and likely contact pages.
    pub max_pages: usize,
    pub max_page_bytes: usize,
    pub page_timeout_seconds: u64,
    /// Reach nothing but `allow_hosts`, refused before any DNS lookup: for tests and closed networks.
    pub restrict_to_allow_hosts: bool,
    /// DNS servers (`ip:port`, comma-separated in the environment) for MX verdicts; empty means the system's
    /// (none at all when `restrict_to_allow_hosts` is on, so verdicts are `unknown` there).
    #[serde(deserialize_with = "comma_list")]
    pub dns_servers: Vec<String>,
    /// Websites one worker process reads at once (each site is still read one page at a time).
    pub concurrency: usize,
}

impl Default for CrawlerSettings {
    fn default() -> Self {
        Self {
            allow_hosts: Vec::new(),
            max_pages: 5,
            max_page_bytes: 1024 * 1024,
            page_timeout_seconds: 10,
            restrict_to_allow_hosts: false,
            dns_servers: Vec::new(),
            concurrency: 32,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AiSettings {
    /// `offline` (the built-in deterministic writer), `openai` (any OpenAI-compatible chat API: OpenAI, Ollama,
    /// vLLM, llama.cpp) or `anthropic`.
    pub provider: AiProvider,
    /// Empty means the provider's own API (`https://api.openai.com/v1`, `https://api.anthropic.com`).
    pub base_url: String,
    pub api_key: Secret,
    pub model: String,
    /// How long `POST /api/emails/generate` waits for the writer before answering with an id to poll.
    pub wait_seconds: u64,
    /// Timeout of one request to the provider.
    pub timeout_seconds: u64,
}

impl Default for AiSettings {
    fn default() -> Self {
        Self {
            provider: AiProvider::Offline,
            base_url: String::new(),
            api_key: Secret::default(),
            model: String::new(),
            wait_seconds: 25,
            timeout_seconds: 60,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InstanceSettings {
    /// Who runs this instance, shown in the policies and contact pages.
    pub operator_name: String,
    /// Where invite requests, upgrades and support mail go; empty means the first administrator's address.
    pub contact_email: String,
    /// The two support addresses of the contact page (comma-separated in the environment); empty means the
    /// contact address.
    #[serde(deserialize_with = "comma_list")]
    pub support_emails: Vec<String>,
    /// The domain the product's own sending addresses use (`name@<domain>`); empty means `hello.<public host>`.
    pub sending_domain: String,
    /// External links of the About page: the operator's full biography and online courses (hidden when empty).
    pub biography_url: String,
    pub courses_url: String,
}

impl Default for InstanceSettings {
    fn default() -> Self {
        Self {
            operator_name: "Outreach".into(),
            contact_email: String::new(),
            support_emails: Vec::new(),
            sending_domain: String::new(),
            biography_url: String::new(),
            courses_url: String::new(),
        }
    }
}

impl Settings {
    /// The address people write to for invites, upgrades and support.
    pub fn contact_email(&self) -> String {
        if self.instance.contact_email.is_empty() {
            self.auth.admin_emails.first().cloned().unwrap_or_default()
        } else {
            self.instance.contact_email.clone()
        }
    }
}

impl Settings {
    /// The support addresses shown to users: configured, else the contact address.
    pub fn support_emails(&self) -> Vec<String> {
        if self.instance.support_emails.is_empty() {
            vec![self.contact_email()]
                .into_iter()
                .filter(|email| !email.is_empty())
                .collect()
        } else {
            self.instance.support_emails.clone()
        }
    }

    /// The domain of the product's own sending addresses.
    pub fn sending_domain(&self) -> String {
        if !self.instance.sending_domain.is_empty() {
            return self.instance.sending_domain.clone();
        }
        let public = self.http.public_url();
        let host = url_host(&public);
        format!("hello.{host}")
    }
}

/// The host part of a URL such as `https://outreach.example.com:8443/path`.
fn url_host(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    }
}

/// Accepts `"a@x.org, b@y.org"` (environment) or `["a@x.org"]` (TOML).
fn comma_list<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        One(String),
        Many(Vec<String>),
    }
    let items = match Raw::deserialize(deserializer)? {
        Raw::One(text) => text.split(',').map(str::to_string).collect(),
        Raw::Many(items) => items,
    };
    Ok(items
        .into_iter()
        .map(|item| item.trim().to_lowercase())
        .filter(|item| !item.is_empty())
        .collect())
}

/// `comma_list` whose items are names of a closed set; an unknown name is an error that names it.
fn comma_list_of<'de, D: Deserializer<'de>, T: std::str::FromStr>(
    deserializer: D,
) -> Result<Vec<T>, D::Error>
where
    T::Err: std::fmt::Display,
{
    comma_list(deserializer)?
        .iter()
        .map(|item| item.parse().map_err(serde::de::Error::custom))
        .collect()
}

impl Settings {
    /// Loads defaults, then the TOML file if it exists, then the process environment.
    pub fn load(file: &Path) -> Result<Self, Invalid> {
        let settings: Self = Self::figment(file)
            .extract()
            .map_err(|error| format!("configuration error: {error}"))?;
        if let Err(error) = settings
            .sending
            .default_window
            .parse::<crate::platform::window::SendingWindow>()
        {
            return Err(Invalid(format!(
                "configuration error: sending.default_window \"{}\": {error}",
                settings.sending.default_window
            )));
        }
        // The server answers only to its public host and its listen address (DNS rebinding): on every interface,
        // the address is no name a browser uses.
        if settings.http.listen.ip().is_unspecified() && settings.http.public_url.is_empty() {
            return Err(Invalid(format!(
                "configuration error: http.listen is {} (every interface): set http.public_url \
                 (OUTREACH_HTTP__PUBLIC_URL) to the address people use, the only host name the server answers to",
                settings.http.listen
            )));
        }
        Ok(settings)
    }

    fn figment(file: &Path) -> Figment {
        Figment::from(Serialized::defaults(Settings::default()))
            .merge(Toml::file(file))
            // The test builds' fault points read their own variable (platform::faults); it is no setting.
            .merge(
                Env::prefixed("OUTREACH_")
                    .ignore(&["TEST_FAULTS"])
                    .split("__"),
            )
    }

    /// The folder for the SQLite database, the generated secret key and other local state.
    pub fn data_dir(&self) -> PathBuf {
        self.database
            .url
            .strip_prefix("sqlite://")
            .and_then(|path| {
                Path::new(path.split('?').next().unwrap_or(path))
                    .parent()
                    .map(Path::to_path_buf)
            })
            .filter(|dir| !dir.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("./data"))
    }
}

/// The commented example configuration printed by `outreach config default`.
pub const EXAMPLE_CONFIG: &str = include_str!("../../../outreach.example.toml");

#[cfg(test)]
mod tests;
