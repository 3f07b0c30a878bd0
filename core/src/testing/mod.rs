//! Test support: a fresh, migrated database per test on SQLite, and on PostgreSQL too when `TEST_DATABASE_URL`
//! names a server (a new database is created there for each test and dropped by `cleanup`, or when the `TestDb`
//! goes without it).

use crate::platform::db::Db;

pub mod goals;
mod seed;
pub use seed::{
    SeededFollowUps, claimed_by_gone_worker, seed_campaign, seed_follow_ups, seed_pooled_campaign,
    seed_sender,
};

/// Connections per test database: two worker processes in one test each hold one listening connection per job
/// kind on PostgreSQL, besides the ones jobs use.
const TEST_POOL: u32 = 24;

/// How long cleanup waits for the test's connections to come back before dropping the database regardless.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

pub struct TestDb {
    pub db: Db,
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    /// Held so the folder lives as long as the database.
    Sqlite {
        _dir: tempfile::TempDir,
    },
    Postgres {
        admin_url: String,
        name: String,
    },
    /// Cleaned up already.
    Done,
}

async fn migrate(db: &Db, version: Option<i64>) {
    match version {
        Some(version) => db.migrate_until(version).await,
        None => db.migrate().await,
    }
    .expect("the database migrates");
}

/// Runs `test` once on every backend under test, each time on a fresh database (see `TestDb::all`).
pub async fn each_backend<Test, Run>(test: Test)
where
    Test: Fn(TestDb) -> Run,
    Run: std::future::Future<Output = ()>,
{
    for test_db in TestDb::all().await {
        test(test_db).await;
    }
}

/// The PostgreSQL server the tests run on too (`TEST_DATABASE_URL`), when one is set; tests of PostgreSQL alone
/// return at once without it.
pub fn postgres_admin_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

impl TestDb {
    /// Every backend under test: SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set.
    pub async fn all() -> Vec<TestDb> {
        Self::all_until(None).await
    }

    /// Every backend, migrated only up to `version` (None: fully), for testing a migration over existing rows.
    pub async fn all_until(version: Option<i64>) -> Vec<TestDb> {
        let mut dbs = vec![Self::sqlite_until(version).await];
        if let Some(url) = postgres_admin_url() {
            dbs.push(Self::postgres_until(&url, version).await);
        }
        dbs
    }

    pub async fn sqlite() -> TestDb {
        Self::sqlite_until(None).await
    }

    async fn sqlite_until(version: Option<i64>) -> TestDb {
        let dir = tempfile::tempdir().expect("temporary folder");
        let url = format!("sqlite://{}/outreach.db", dir.path().display());
        let db = Db::connect(&url, TEST_POOL).await.expect("sqlite opens");
        migrate(&db, version).await;
        TestDb {
            db,
            url,
            cleanup: Cleanup::Sqlite { _dir: dir },
        }
    }

    pub async fn postgres(admin_url: &str) -> TestDb {
        Self::postgres_until(admin_url, None).await
    }

    async fn postgres_until(admin_url: &str, version: Option<i64>) -> TestDb {
        let name = format!(
            "outreach_test_{}",
            crate::platform::security::random_token(9)
                .to_lowercase()
                .replace(['-', '_'], "x")
        );
        let admin = Db::connect(admin_url, 1)
            .await
            .expect("TEST_DATABASE_URL answers");
        if let Db::Postgres(pool) = &admin {
            sqlx::query(sqlx::AssertSqlSafe(format!("create database {name}")))
                .execute(pool)
                .await
                .expect("create database");
        }
        admin.close().await;
        let url = with_database(admin_url, &name);
        let db = Db::connect(&url, TEST_POOL)
            .await
            .expect("test database opens");
        migrate(&db, version).await;
        TestDb {
            db,
            url,
            cleanup: Cleanup::Postgres {
                admin_url: admin_url.to_string(),
                name,
            },
        }
    }

    /// Runs a statement outside the store, e.g. to break a table so a job fails.
    pub async fn execute(&self, sql: &'static str) {
        crate::on_db!(&self.db, pool => sqlx::query(sql).execute(pool).await.map(|_| ()))
            .unwrap_or_else(|error| panic!("{sql}: {error}"));
    }

    /// Closes the pools and drops a PostgreSQL test database.
    pub async fn cleanup(mut self) {
        // A pool's close waits for every connection to come back. A worker stopped by its shutdown timeout may
        // leave a task of apalis's holding one, and that wait never ends (it held CI for an hour); the forced drop
        // below ends such connections on PostgreSQL, and SQLite's folder goes with the test.
        if tokio::time::timeout(CLOSE_WAIT, self.db.close())
            .await
            .is_err()
        {
            eprintln!("a connection was still in use {CLOSE_WAIT:?} after the test; dropped");
        }
        if let Cleanup::Postgres { admin_url, name } =
            std::mem::replace(&mut self.cleanup, Cleanup::Done)
        {
            drop_postgres_database(&admin_url, &name).await;
        }
    }
}

impl Drop for TestDb {
    /// A test that ends without `cleanup` (it forgot, or failed first) leaves no database on the server either.
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } =
            std::mem::replace(&mut self.cleanup, Cleanup::Done)
        {
            // Drop may run on the test's runtime, which cannot wait on a future here: the statement runs on a
            // thread with a runtime of its own.
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(drop_postgres_database(&admin_url, &name));
            })
            .join()
            .ok();
        }
    }
}

/// Drops a test database, ending the connections still open to it.
async fn drop_postgres_database(admin_url: &str, name: &str) {
    if let Ok(Db::Postgres(pool)) = Db::connect(admin_url, 1).await {
        let drop = format!("drop database if exists {name} with (force)");
        sqlx::query(sqlx::AssertSqlSafe(drop))
            .execute(&pool)
            .await
            .ok();
        pool.close().await;
    }
}

/// The same server URL pointing at another database.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(base, query)| (base, Some(query)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let server = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{server}/{name}?{query}"),
        None => format!("{server}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_is_swapped_in_the_url() {
        assert_eq!(
            super::with_database("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://u@h:5432", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://h/db?sslmode=disable", "x"),
            "postgres://h/x?sslmode=disable"
        );
    }

    #[test]
    fn folded_header_lines_are_joined_and_the_body_is_left_as_it_is() {
        let message = "To: a@b.example\nReferences: <1@x.example>\n <2@x.example>\n\tend\nSubject: Hi\n\nBody\n indented\n";
        assert_eq!(
            super::unfold_headers(message),
            "To: a@b.example\nReferences: <1@x.example> <2@x.example> end\nSubject: Hi\n\nBody\n indented\n"
        );
        let crlf = "References: <1@x.example>\r\n <2@x.example>\r\n\r\nBody\r\n";
        assert_eq!(
            super::unfold_headers(crlf),
            "References: <1@x.example> <2@x.example>\r\n\r\nBody\r\n"
        );
    }
}

/// What the fake DNS server answers for a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DnsAnswer {
    /// MX records with these exchanges.
    Exchanges(Vec<&'static str>),
    /// RFC 7505: the domain takes no mail.
    NullMx,
    /// NXDOMAIN: the domain does not exist.
    NoDomain,
    /// No answer at all: the resolver times out.
    Silent,
    /// TXT records, one string each (SPF, DKIM, DMARC).
    Txt(Vec<&'static str>),
    /// A CNAME record pointing at this name.
    Cname(&'static str),
}

impl DnsAnswer {
    /// Whether this answer is for queries of `kind`; NXDOMAIN and silence answer every kind.
    fn answers(&self, kind: hickory_resolver::proto::rr::RecordType) -> bool {
        use hickory_resolver::proto::rr::RecordType;
        match self {
            DnsAnswer::Exchanges(_) | DnsAnswer::NullMx => kind == RecordType::MX,
            DnsAnswer::Txt(_) => kind == RecordType::TXT,
            DnsAnswer::Cname(_) => kind == RecordType::CNAME,
            DnsAnswer::NoDomain | DnsAnswer::Silent => true,
        }
    }
}

/// A DNS server on a loopback UDP port answering from `zones` (a name may have several entries, one per record
/// type; an existing name answers other types with no records, an unknown one with NXDOMAIN), so DNS checks are
/// tested without the network. Lives as long as the test's runtime.
pub async fn fake_dns(zones: Vec<(&'static str, DnsAnswer)>) -> std::net::SocketAddr {
    use hickory_resolver::proto::op::{Message, ResponseCode};
    use hickory_resolver::proto::rr::rdata::{CNAME, MX, TXT};
    use hickory_resolver::proto::rr::{Name, RData, Record};

    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0")
        .await
        .expect("a loopback UDP port");
    let address = socket.local_addr().expect("bound");
    tokio::spawn(async move {
        let mut buffer = [0u8; 1500];
        while let Ok((size, peer)) = socket.recv_from(&mut buffer).await {
            let Ok(query) = Message::from_vec(&buffer[..size]) else {
                continue;
            };
            let Some(question) = query.queries.first().cloned() else {
                continue;
            };
            let asked = question
                .name()
                .to_ascii()
                .trim_end_matches('.')
                .to_lowercase();
            let entries: Vec<&DnsAnswer> = zones
                .iter()
                .filter(|(zone, _)| *zone == asked)
                .map(|(_, answer)| answer)
                .collect();
            let answer = if entries.is_empty() {
                Some(DnsAnswer::NoDomain)
            } else {
                entries
                    .into_iter()
                    .find(|answer| answer.answers(question.query_type()))
                    .cloned()
            };
            let mut reply = Message::response(query.metadata.id, query.metadata.op_code);
            reply.metadata.recursion_desired = query.metadata.recursion_desired;
            reply.metadata.recursion_available = true;
            reply.add_query(question.clone());
            let name = question.name().clone();
            let records: Vec<RData> = match answer {
                Some(DnsAnswer::Silent) => continue,
                Some(DnsAnswer::NoDomain) => {
                    reply.metadata.response_code = ResponseCode::NXDomain;
                    vec![]
                }
                None => vec![],
                Some(DnsAnswer::NullMx) => vec![RData::MX(MX::new(0, Name::root()))],
                Some(DnsAnswer::Exchanges(exchanges)) => exchanges
                    .into_iter()
                    .enumerate()
                    .map(|(preference, exchange)| {
                        let exchange = Name::from_ascii(exchange).expect("a valid exchange name");
                        RData::MX(MX::new(10 * preference as u16, exchange))
                    })
                    .collect(),
                Some(DnsAnswer::Txt(texts)) => texts
                    .into_iter()
                    .map(|text| RData::TXT(TXT::new(vec![text.to_string()])))
                    .collect(),
                Some(DnsAnswer::Cname(target)) => vec![RData::CNAME(CNAME(
                    Name::from_ascii(target).expect("a valid CNAME target"),
                ))],
            };
            for record in records {
                reply.add_answer(Record::from_rdata(name.clone(), 300, record));
            }
            if let Ok(bytes) = reply.to_vec() {
                socket.send_to(&bytes, peer).await.ok();
            }
        }
    });
    address
}

/// Postfix's `smtp-sink` (Debian package postfix; the daemon is never started) on a loopback port, keeping every
/// message it receives as a file in a temporary folder: a real SMTP server for tests. `extra` adds options, e.g.
/// `["-w", "1"]` to wait a second before answering each message.
pub struct SmtpSink {
    pub port: u16,
    dir: tempfile::TempDir,
    child: std::process::Child,
}

impl SmtpSink {
    pub fn start(extra: &[&str]) -> Self {
        Self::launch(extra, true)
    }

    /// A sink that only counts (no files): for benchmarks.
    pub fn start_counting() -> Self {
        Self::launch(&[], false)
    }

    fn launch(extra: &[&str], keep: bool) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let mut command = std::process::Command::new("smtp-sink");
        // As root it must be told whom to run as.
        let root = std::process::Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0");
        if root {
            command.args(["-u", "root"]);
        }
        command.args(extra);
        if keep {
            command
                .arg("-d")
                .arg(format!("{}/%M.", dir.path().display()));
        }
        command.arg(format!("127.0.0.1:{port}")).arg("100");
        let child = command
            .spawn()
            .expect("smtp-sink runs (Debian package postfix; .ci/run installs it)");
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        Self { port, dir, child }
    }

    /// How many messages were received so far (without reading them).
    pub fn count(&self) -> usize {
        std::fs::read_dir(self.dir.path()).map_or(0, |entries| entries.count())
    }

    /// The messages received so far, in the order of their files' names, each with its folded header lines
    /// unfolded (RFC 5322 §2.2.3: a long References header goes on over several lines), so that a test can look for
    /// a whole header.
    pub fn messages(&self) -> Vec<String> {
        let mut files: Vec<_> = std::fs::read_dir(self.dir.path())
            .expect("the sink's folder")
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        files.sort();
        files
            .iter()
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .map(|message| unfold_headers(&message))
            .collect()
    }
}

/// `message` with each header line that goes on over the next (which starts with a space or a tab) joined to it.
fn unfold_headers(message: &str) -> String {
    let (headers, body) = match message.find("\n\n").or_else(|| message.find("\r\n\r\n")) {
        Some(end) => message.split_at(end),
        None => (message, ""),
    };
    let mut unfolded = String::with_capacity(message.len());
    for line in headers.split_inclusive('\n') {
        if line.starts_with([' ', '\t']) && unfolded.ends_with('\n') {
            unfolded.truncate(unfolded.trim_end_matches(['\r', '\n']).len());
            unfolded.push(' ');
            unfolded.push_str(line.trim_start_matches([' ', '\t']));
        } else {
            unfolded.push_str(line);
        }
    }
    unfolded + body
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// Dovecot's IMAP server (Debian package dovecot-imapd; the system service is never used) on a loopback port, with
/// its own configuration, a passwd-file of `users` (login, password) and a Maildir each: a real IMAP server for
/// tests. [`Dovecot::deliver`] drops a message into a mailbox as a delivery agent would.
pub struct Dovecot {
    pub port: u16,
    dir: tempfile::TempDir,
    /// The owner of the mailboxes' files: Dovecot's own user when the tests run as root (Dovecot will not read mail
    /// as root), else the current user.
    owner: Option<(u32, u32)>,
    child: std::process::Child,
    delivered: std::sync::atomic::AtomicUsize,
}

impl Dovecot {
    pub fn start(users: &[(&str, &str)]) -> Self {
        use std::fmt::Write as _;
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary folder");
        // Dovecot's processes must reach the mailboxes under it.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).ok();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let id = |args: &[&str]| {
            std::process::Command::new("id")
                .args(args)
                .output()
                .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
                .unwrap_or_default()
        };
        let root = id(&["-u"]) == "0";
        let (owner, login_user, internal_user) = if root {
            let uid = id(&["-u", "dovecot"]).parse().expect("the dovecot user");
            let gid = id(&["-g", "dovecot"]).parse().expect("the dovecot group");
            (
                Some((uid, gid)),
                "dovenull".to_string(),
                "dovecot".to_string(),
            )
        } else {
            (None, id(&["-un"]), id(&["-un"]))
        };
        let (uid, gid) = owner.unwrap_or_else(|| {
            (
                id(&["-u"]).parse().unwrap_or(1000),
                id(&["-g"]).parse().unwrap_or(1000),
            )
        });
        let root_dir = dir.path().display().to_string();
        let mut passwd = String::new();
        for (login, password) in users {
            writeln!(passwd, "{login}:{{PLAIN}}{password}").ok();
            for sub in ["new", "cur", "tmp"] {
                std::fs::create_dir_all(
                    dir.path()
                        .join("home")
                        .join(login)
                        .join("Maildir")
                        .join(sub),
                )
                .expect("a Maildir");
            }
        }
        std::fs::write(dir.path().join("passwd"), passwd).expect("the passwd-file");
        for sub in ["run", "state"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("Dovecot's folders");
        }
        let config = format!(
            "base_dir = {root_dir}/run\nstate_dir = {root_dir}/state\nlog_path = {root_dir}/log\n\
             instance_name = outreach-test-{port}\nprotocols = imap\nlisten = 127.0.0.1\nssl = no\n\
             disable_plaintext_auth = no\nauth_mechanisms = plain login\nmail_location = maildir:~/Maildir\n\
             first_valid_uid = 1\ndefault_login_user = {login_user}\ndefault_internal_user = {internal_user}\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {root_dir}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid={uid} gid={gid} home={root_dir}/home/%u\n}}\n\
             service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n\
             \x20 inet_listener imaps {{\n    port = 0\n  }}\n}}\n"
        );
        std::fs::write(dir.path().join("dovecot.conf"), config).expect("the configuration");
        let dovecot = Self {
            port,
            owner,
            child: std::process::Command::new("dovecot")
                .arg("-F")
                .arg("-c")
                .arg(dir.path().join("dovecot.conf"))
                .stdout(std::process::Stdio::null())
                .spawn()
                .expect("dovecot runs (Debian package dovecot-imapd; .ci/run installs it)"),
            dir,
            delivered: std::sync::atomic::AtomicUsize::new(0),
        };
        dovecot.chown(&dovecot.dir.path().join("home"));
        for _ in 0..150 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return dovecot;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        panic!(
            "dovecot did not listen: {}",
            std::fs::read_to_string(dovecot.dir.path().join("log")).unwrap_or_default()
        );
    }

    /// Puts a raw message into `login`'s INBOX (a new Maildir file).
    pub fn deliver(&self, login: &str, raw: &str) {
        let count = self
            .delivered
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let name = format!(
            "{}.M{count}P{}.outreach-test",
            1_700_000_000 + count,
            std::process::id()
        );
        let maildir = self.dir.path().join("home").join(login).join("Maildir");
        let staged = maildir.join("tmp").join(&name);
        std::fs::write(&staged, raw.replace('\n', "\r\n").replace("\r\r\n", "\r\n"))
            .expect("a message file");
        self.chown(&staged);
        std::fs::rename(&staged, maildir.join("new").join(&name)).expect("delivered");
    }

    /// How many of `login`'s messages carry the \Seen flag (Maildir's `S` in the file name's info part).
    pub fn seen(&self, login: &str) -> usize {
        let cur = self
            .dir
            .path()
            .join("home")
            .join(login)
            .join("Maildir")
            .join("cur");
        std::fs::read_dir(cur)
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok())
                    .filter(|entry| {
                        let name = entry.file_name().to_string_lossy().to_string();
                        name.rsplit_once(":2,")
                            .is_some_and(|(_, flags)| flags.contains('S'))
                    })
                    .count()
            })
            .unwrap_or(0)
    }

    fn chown(&self, path: &std::path::Path) {
        if let Some((uid, gid)) = self.owner {
            std::process::Command::new("chown")
                .arg("-R")
                .arg(format!("{uid}:{gid}"))
                .arg(path)
                .status()
                .expect("chown");
        }
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        // SIGTERM lets the master stop its login and mail processes too.
        std::process::Command::new("kill")
            .arg(self.child.id().to_string())
            .status()
            .ok();
        self.child.wait().ok();
    }
}

/// Settings whose senders may be test servers on loopback, as an operator lists a local relay in
/// `sending.allow_hosts` (loopback is refused otherwise).
pub fn loopback_senders_allowed(mut settings: crate::Settings) -> crate::Settings {
    settings.sending.allow_hosts = vec!["127.0.0.1/32".into()];
    settings
}

/// Settings for tests of everything but windows and pacing: new campaigns send at any time and senders as fast as
/// their servers take messages (the window and pacing tests set their own).
pub fn at_any_time(mut settings: crate::Settings) -> crate::Settings {
    settings.sending.default_window = "mon-sun 00:00-24:00".into();
    settings.sending.pacing = false;
    settings
}

/// A sender configuration for a loopback SMTP server without TLS or password (an [`SmtpSink`]).
pub fn loopback_smtp_sender(port: u16) -> crate::sending::senders::NewEmailConfig {
    crate::sending::senders::NewEmailConfig {
        provider: crate::sending::senders::Provider::Smtp,
        send_from: "ada@bakery.example".into(),
        send_from_name: "Ada".into(),
        smtp_host: Some("127.0.0.1".into()),
        smtp_port: Some(i32::from(port)),
        smtp_security: Some(crate::platform::net::Security::None),
        daily_cap: 10_000_000,
        is_verified: true,
        ..crate::sending::senders::NewEmailConfig::default()
    }
}

/// Every tag of `html` is one the sanitiser allows, with no attribute but a link's `href` (http, https or mailto)
/// and `rel`.
pub fn assert_only_safe_markup(html: &str) {
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').map(|at| at + open);
        let close = close.unwrap_or_else(|| panic!("an unclosed tag in {html}"));
        let tag = &rest[open + 1..close];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        assert!(
            [
                "p", "br", "strong", "b", "em", "i", "u", "a", "ul", "ol", "li"
            ]
            .contains(&name.as_str()),
            "<{tag}> in {html}"
        );
        let mut remaining = tag[tag.find(' ').unwrap_or(tag.len())..].trim();
        while !remaining.is_empty() {
            let (attribute, after) = remaining
                .split_once("=\"")
                .unwrap_or_else(|| panic!("an unquoted attribute in <{tag}>"));
            let (value, after) = after
                .split_once('"')
                .unwrap_or_else(|| panic!("an unclosed value in <{tag}>"));
            match attribute.trim() {
                "rel" if name == "a" => {}
                "href" if name == "a" => {
                    let url = html_escape::decode_html_entities(value).to_ascii_lowercase();
                    assert!(
                        ["http://", "https://", "mailto:"]
                            .iter()
                            .any(|scheme| url.trim().starts_with(scheme)),
                        "href {value} in {html}"
                    );
                }
                other => panic!("attribute {other} in <{tag}> of {html}"),
            }
            remaining = after.trim();
        }
        rest = &rest[close + 1..];
    }
}
