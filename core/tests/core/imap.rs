//! The IMAP client against a real Dovecot on loopback: new messages after the last UID, the date window without
//! one, a changed mailbox, a refused login and an unreachable server.

use outreach_core::inbound::imap::{ImapError, ImapServer};
use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::config::Secret;
use outreach_core::platform::net::AddressPolicy;
use outreach_core::sending::senders::Mark;
use outreach_core::testing::Dovecot;

fn mailbox(port: u16, password: &str) -> ImapServer {
    ImapServer {
        host: "127.0.0.1".into(),
        port,
        security: outreach_core::platform::net::Security::None,
        username: "ada@bakery.example".into(),
        password: Secret::new(password),
        policy: AddressPolicy {
            allow_hosts: vec!["127.0.0.1/32".into()],
            restrict: false,
        },
        timeout: std::time::Duration::from_secs(5),
    }
}

fn message(n: usize) -> String {
    format!(
        "From: Owner {n} <owner{n}@cafe.example>\nTo: ada@bakery.example\nSubject: Re: Bread\nMessage-ID: <r{n}@cafe.example>\n\nReply number {n}\n"
    )
}

#[tokio::test]
async fn reads_new_messages_after_the_last_uid_without_marking_them_seen() {
    let dovecot = Dovecot::start(&[("ada@bakery.example", "secret")]);
    let server = mailbox(dovecot.port, "secret");
    let day_ago = SystemClock.now_ms() - 86_400_000;
    server.check().await.expect("the login works");

    let (validity, empty) = server.fetch_new(None, day_ago, 100).await.unwrap();
    assert!(empty.is_empty());
    dovecot.deliver("ada@bakery.example", &message(1));
    dovecot.deliver("ada@bakery.example", &message(2));
    let (same, first) = server.fetch_new(None, day_ago, 100).await.unwrap();
    assert_eq!(same, validity);
    assert_eq!(first.len(), 2);
    assert!(String::from_utf8_lossy(&first[0].raw).contains("Reply number 1"));
    assert!(first[0].uid < first[1].uid);
    assert_eq!(
        dovecot.seen("ada@bakery.example"),
        0,
        "read with BODY.PEEK, left unseen for the user"
    );

    // After the mark only what is new; `last:*` matching the last message again is not news.
    let mark = Mark {
        uid_validity: validity,
        last_uid: first[1].uid,
    };
    assert!(
        server
            .fetch_new(Some(mark), day_ago, 100)
            .await
            .unwrap()
            .1
            .is_empty()
    );
    dovecot.deliver("ada@bakery.example", &message(3));
    let (_, next) = server.fetch_new(Some(mark), day_ago, 100).await.unwrap();
    assert_eq!(next.len(), 1);
    assert!(String::from_utf8_lossy(&next[0].raw).contains("Reply number 3"));
    // The limit keeps the oldest first; the rest come next time.
    let (_, limited) = server.fetch_new(None, day_ago, 2).await.unwrap();
    assert_eq!(
        limited.iter().map(|m| m.uid).collect::<Vec<_>>(),
        vec![first[0].uid, first[1].uid]
    );

    // A mark from another UIDVALIDITY means nothing: the date window is read instead.
    let stale = Mark {
        uid_validity: validity.wrapping_add(1),
        last_uid: 10_000,
    };
    assert_eq!(
        server
            .fetch_new(Some(stale), day_ago, 100)
            .await
            .unwrap()
            .1
            .len(),
        3
    );
}

#[tokio::test]
async fn a_wrong_password_and_a_closed_port_are_told_apart() {
    let dovecot = Dovecot::start(&[("ada@bakery.example", "secret")]);
    assert!(matches!(
        mailbox(dovecot.port, "wrong").check().await,
        Err(ImapError::LoginRefused(_))
    ));
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    assert!(matches!(
        mailbox(closed, "secret").check().await,
        Err(ImapError::Unreachable(_))
    ));
}

/// A server that accepts and then says nothing (at the greeting, or after its first line): each step gives up
/// after one deadline, as every other network step does, not after a whole session's.
#[tokio::test]
async fn a_silent_server_is_given_up_after_one_steps_deadline() {
    for greeting in ["", "* OK ready\r\n"] {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            tokio::io::AsyncWriteExt::write_all(&mut socket, greeting.as_bytes())
                .await
                .unwrap();
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            drop(socket);
        });
        let mut silent = mailbox(port, "secret");
        silent.timeout = std::time::Duration::from_secs(1);
        let started = std::time::Instant::now();
        let outcome = silent.check().await;
        let took = started.elapsed();
        assert!(
            matches!(outcome, Err(ImapError::Unreachable(_))),
            "{outcome:?}"
        );
        // One step's deadline (with room for a loaded machine), not the session's four.
        assert!(
            took < std::time::Duration::from_secs(3),
            "{greeting:?}: {took:?}"
        );
        server.abort();
    }
}
