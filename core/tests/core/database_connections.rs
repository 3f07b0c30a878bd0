//! The database driver's connections, where sqlx 0.9.0 has two bugs the repository carries upstream's fixes for
//! until a release has them (vendor/README.md):
//! - its TCP connections send each write at once (`TCP_NODELAY`). sqlx 0.9.0 stopped setting it, and with Nagle's
//!   algorithm on, a request written in two pieces (as TLS does) waited for the server's delayed acknowledgement:
//!   about 40 ms stalls that cut the queue's drain by a third on PostgreSQL;
//! - a PostgreSQL transaction whose future is dropped while its `BEGIN` is in flight is rolled back. sqlx 0.9.0 left
//!   it open on a connection it put back in the pool, so the next borrower's writes ran inside it, unseen by anyone
//!   else and lost when the connection closed (an automation the API had just created came back as not found).
//!
//! And SQLite: the library the driver builds, which `.cargo/config.toml` compiles without its memory statistics, and
//! its write-ahead log, which a connection of its own copies into the database file beside the writer.

use std::any::Any;

use futures::FutureExt;
use outreach_core::Db;
use outreach_core::testing::{TestDb, postgres_admin_url};
use sqlx::{Connection, PgConnection};
use sqlx_core::net::{Socket, WithSocket, connect_tcp};

/// Reads, on the socket the driver opened, whether small writes go out at once.
struct SendsAtOnce;

impl WithSocket for SendsAtOnce {
    type Output = Option<bool>;

    async fn with_socket<S: Socket>(self, socket: S) -> Option<bool> {
        let socket: &dyn Any = &socket;
        let stream = socket.downcast_ref::<tokio::net::TcpStream>()?;
        stream.nodelay().ok()
    }
}

#[tokio::test]
async fn the_driver_opens_tcp_connections_with_nagles_algorithm_off() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let sends_at_once = connect_tcp("127.0.0.1", port, SendsAtOnce)
        .await
        .expect("connects");
    assert_eq!(
        sends_at_once,
        Some(true),
        "a tokio TCP stream with TCP_NODELAY set"
    );
}

#[tokio::test]
async fn a_write_after_a_transaction_cancelled_while_it_began_is_committed_and_seen_by_others() {
    // PostgreSQL only: SQLite's driver rolls such a transaction back itself.
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let test_db = TestDb::postgres(&admin_url).await;
    // One connection, so the write below gets the one whose transaction was cancelled; through a relay that can
    // hold the server's answers back, so the BEGIN is surely still waiting for its answer when it is dropped.
    let relay = AnswerRelay::to(&test_db.url).await;
    let Db::Postgres(pool) = Db::connect(&relay.url, 1).await.expect("connects") else {
        unreachable!("a PostgreSQL address");
    };
    sqlx::query("create table written (id int)")
        .execute(&pool)
        .await
        .unwrap();
    let mut connection = pool.acquire().await.unwrap();
    // Polled once: the BEGIN goes out and the future is dropped before its answer, as when a client goes away or a
    // worker stops.
    relay.hold.send(true).unwrap();
    let cancelled = connection.begin().now_or_never().is_none();
    assert!(cancelled, "the BEGIN's answer was not awaited");
    drop(connection);
    relay.hold.send(false).unwrap();

    sqlx::query("insert into written values (1)")
        .execute(&pool)
        .await
        .unwrap();
    let mut other = PgConnection::connect(&test_db.url).await.unwrap();
    let seen: i64 = sqlx::query_scalar("select count(*) from written")
        .fetch_one(&mut other)
        .await
        .unwrap();
    other.close().await.unwrap();
    pool.close().await;
    assert_eq!(
        seen, 1,
        "the write was committed, not left in a transaction"
    );
}

/// A TCP relay to a PostgreSQL server that holds the server's answers back while `hold` says so.
struct AnswerRelay {
    url: String,
    hold: tokio::sync::watch::Sender<bool>,
}

impl AnswerRelay {
    async fn to(url: &str) -> Self {
        let (before, rest) = url.split_once('@').expect("user@host");
        let (server, database) = rest.split_once('/').expect("host/database");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let relay_url = format!("{before}@{}/{database}", listener.local_addr().unwrap());
        let (hold, held) = tokio::sync::watch::channel(false);
        let server = server.to_string();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let upstream = tokio::net::TcpStream::connect(&server).await.unwrap();
                let (mut client_reads, mut client_writes) = client.into_split();
                let (mut server_reads, mut server_writes) = upstream.into_split();
                tokio::spawn(async move {
                    tokio::io::copy(&mut client_reads, &mut server_writes)
                        .await
                        .ok();
                });
                let mut held = held.clone();
                tokio::spawn(async move {
                    use tokio::io::{AsyncReadExt, AsyncWriteExt};
                    let mut buffer = vec![0; 16 * 1024];
                    while let Ok(read) = server_reads.read(&mut buffer).await {
                        // Answers wait here while held.
                        if read == 0 || held.wait_for(|hold| !hold).await.is_err() {
                            break;
                        }
                        if client_writes.write_all(&buffer[..read]).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        Self {
            url: relay_url,
            hold,
        }
    }
}

#[tokio::test]
async fn sqlite_is_built_without_its_memory_statistics() {
    // With them, every allocation and free SQLite makes takes one process-wide mutex: the rows a query returns are
    // freed on the async runtime's threads while SQLite's connection threads allocate, and they waited on each
    // other (docs/benchmarks.md, Sending).
    let test_db = TestDb::sqlite().await;
    let Db::Sqlite { readers, .. } = &test_db.db else {
        unreachable!("a SQLite test database");
    };
    let options: Vec<String> = sqlx::query_scalar("pragma compile_options")
        .fetch_all(readers)
        .await
        .unwrap();
    assert!(
        options.iter().any(|option| option == "DEFAULT_MEMSTATUS=0"),
        "SQLite's compile options: {options:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_copies_its_log_into_the_database_file_beside_the_writer() {
    // The writer connection, through which every claim, hand-over and sent mark goes, copied the write-ahead log
    // into the database file itself once the log passed 1,000 pages, and every write waiting for it waited that
    // long (docs/benchmarks.md, Sending).
    let test_db = TestDb::sqlite().await;
    let Db::Sqlite { writer, .. } = &test_db.db else {
        unreachable!("a SQLite test database");
    };
    let threshold: i64 = sqlx::query_scalar("pragma wal_autocheckpoint")
        .fetch_one(writer)
        .await
        .unwrap();
    assert!(
        threshold >= 10_000,
        "the writer checkpoints only as a safety net, far above a busy second's log: {threshold} pages"
    );
    let file = test_db.url.strip_prefix("sqlite://").unwrap().to_string();
    sqlx::query("create table filler (body blob)")
        .execute(writer)
        .await
        .unwrap();
    let before = std::fs::metadata(&file).unwrap().len();
    // About 500 pages: below SQLite's own threshold, so only a checkpoint beside the writer moves them.
    let grown = before + 2_000_000;
    sqlx::query(
        "with recursive n (i) as (select 1 union all select i + 1 from n where i < 200)
         insert into filler (body) select randomblob(10000) from n",
    )
    .execute(writer)
    .await
    .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while std::fs::metadata(&file).unwrap().len() < grown && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        std::fs::metadata(&file).unwrap().len() >= grown,
        "the log's pages reach the database file without the writer checkpointing"
    );
    test_db.cleanup().await;
}
