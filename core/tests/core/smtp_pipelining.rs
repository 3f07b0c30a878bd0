//! The SMTP session against a scripted SMTP server on loopback that records every command and message it receives:
//! with PIPELINING (RFC 2920) and without it, a refused recipient fails only its own message, a message that cannot
//! be built fails alone, a deferred (4xx) message or a stopping worker ends the run before anything after it
//! reaches the server, and content lines that start with a dot arrive intact. Servers with quirks: one that refuses
//! a second EHLO, one that knows only HELO, one that closes after each message, one that goes silent, one that is
//! not an SMTP server at all; and the address policy that keeps senders off loopback unless allowed.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use outreach_core::platform::net::AddressPolicy;
use outreach_core::sending::compose::Composed;
use outreach_core::sending::handover::HandOverError;
use outreach_core::sending::smtp::{SmtpServer, SmtpSession};
use outreach_core::sending::{Handoff, SendError};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// What the scripted server saw: every command line, and each accepted message's recipient and content.
#[derive(Debug, Default)]
struct Seen {
    commands: Vec<String>,
    messages: Vec<(String, String)>,
    /// Reads that held more than one command: proof the client pipelined.
    pipelined_reads: usize,
    connections: usize,
}

/// How the scripted server departs from a plain, well-behaved one.
#[derive(Debug, Clone, Copy, Default)]
struct Quirks {
    pipelining: bool,
    /// `503 Duplicate HELO/EHLO` to a second EHLO on one connection (RFC 5321 allows it, some servers refuse it).
    refuses_second_ehlo: bool,
    /// `502` to EHLO: only HELO (RFC 821) works.
    helo_only: bool,
    /// Closes the connection after accepting each message.
    closes_after_message: bool,
    /// Stops answering (keeping the connection open) after a command starting with this; "" is before the greeting.
    silent_after: Option<&'static str>,
    /// Greets with this instead of SMTP.
    banner: Option<&'static str>,
}

async fn scripted_server(pipelining: bool) -> (u16, Arc<Mutex<Seen>>) {
    quirky_server(Quirks {
        pipelining,
        ..Quirks::default()
    })
    .await
}

/// Starts a server that refuses recipients starting with `refused` (550) and defers those starting with `later`
/// (451); it offers PIPELINING when asked to.
async fn quirky_server(quirks: Quirks) -> (u16, Arc<Mutex<Seen>>) {
    let pipelining = quirks.pipelining;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Seen::default()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let log = log.clone();
            log.lock().unwrap().connections += 1;
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut reader = BufReader::new(read);
                let silent = |command: &str| {
                    quirks
                        .silent_after
                        .is_some_and(|prefix| command.to_ascii_uppercase().starts_with(prefix))
                };
                if silent("") {
                    tokio::time::sleep(Duration::from_secs(3600)).await;
                }
                match quirks.banner {
                    Some(banner) => write.write_all(banner.as_bytes()).await.unwrap(),
                    None => write.write_all(b"220 scripted ESMTP\r\n").await.unwrap(),
                }
                let mut recipient: Option<String> = None;
                let mut greeted = false;
                let mut line = String::new();
                loop {
                    line.clear();
                    if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    if !reader.buffer().is_empty() {
                        log.lock().unwrap().pipelined_reads += 1;
                    }
                    let command = line.trim_end().to_string();
                    log.lock().unwrap().commands.push(command.clone());
                    if silent(&command) {
                        tokio::time::sleep(Duration::from_secs(3600)).await;
                    }
                    let upper = command.to_ascii_uppercase();
                    let reply: String = if upper.starts_with("EHLO") && quirks.helo_only {
                        "502 5.5.2 Error: command not recognized\r\n".into()
                    } else if upper.starts_with("EHLO") && greeted && quirks.refuses_second_ehlo {
                        "503 5.5.1 Error: duplicate HELO/EHLO\r\n".into()
                    } else if upper.starts_with("HELO") {
                        greeted = true;
                        "250 scripted\r\n".into()
                    } else if upper.starts_with("EHLO") {
                        greeted = true;
                        let extension = if pipelining {
                            "PIPELINING"
                        } else {
                            "SIZE 10240000"
                        };
                        format!("250-scripted\r\n250-{extension}\r\n250 8BITMIME\r\n")
                    } else if upper.starts_with("MAIL") {
                        recipient = None;
                        "250 2.1.0 Ok\r\n".into()
                    } else if let Some(address) = command.strip_prefix("RCPT TO:<") {
                        let address = address.trim_end_matches('>').to_string();
                        if address.starts_with("refused") {
                            "550 5.1.1 No such user\r\n".into()
                        } else if address.starts_with("later") {
                            "451 4.3.0 Try again later\r\n".into()
                        } else {
                            recipient = Some(address);
                            "250 2.1.5 Ok\r\n".into()
                        }
                    } else if upper == "DATA" {
                        match &recipient {
                            None => "554 5.5.1 No valid recipients\r\n".into(),
                            Some(to) => {
                                write
                                    .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                                    .await
                                    .unwrap();
                                let mut content = String::new();
                                loop {
                                    line.clear();
                                    reader.read_line(&mut line).await.unwrap();
                                    if line == ".\r\n" {
                                        break;
                                    }
                                    // Transparency (RFC 5321 4.5.2): a leading dot was doubled by the client.
                                    content.push_str(line.strip_prefix('.').unwrap_or(&line));
                                }
                                if silent("CONTENT") {
                                    tokio::time::sleep(Duration::from_secs(3600)).await;
                                }
                                log.lock().unwrap().messages.push((to.clone(), content));
                                if quirks.closes_after_message {
                                    write.write_all(b"250 2.0.0 Ok: queued\r\n").await.ok();
                                    return;
                                }
                                "250 2.0.0 Ok: queued\r\n".into()
                            }
                        }
                    } else if upper == "RSET" {
                        recipient = None;
                        "250 2.0.0 Ok\r\n".into()
                    } else if upper == "QUIT" {
                        write.write_all(b"221 2.0.0 Bye\r\n").await.ok();
                        return;
                    } else {
                        "502 5.5.2 Unknown command\r\n".into()
                    };
                    write.write_all(reply.as_bytes()).await.unwrap();
                }
            });
        }
    });
    (port, seen)
}

/// A sender on loopback, which the policy allows for these tests.
fn server(port: u16) -> SmtpServer {
    SmtpServer {
        host: "127.0.0.1".into(),
        port,
        security: outreach_core::platform::net::Security::None,
        username: None,
        password: None,
        policy: AddressPolicy {
            allow_hosts: vec!["127.0.0.1/32".into()],
            restrict: false,
        },
        timeout: Duration::from_secs(1),
    }
}

fn session(port: u16) -> SmtpSession {
    SmtpSession::new(server(port))
}

fn message(to: &str) -> Composed {
    Composed {
        from_name: "Ada Baker".into(),
        from_email: "ada@bakery.example".into(),
        reply_to: None,
        to_email: to.into(),
        subject: format!("Bread for {to}"),
        body: "<p>Hello</p>".into(),
        html: "<p>Hello</p>".into(),
        text: format!("Hello {to}\n.a line that starts with a dot\n"),
        message_id: format!("{}@bakery.example", to.replace(['@', '.'], "-")),
        headers: Vec::new(),
    }
}

fn kinds(results: &[Result<(), SendError>]) -> Vec<&'static str> {
    results
        .iter()
        .map(|result| match result {
            Ok(()) => "sent",
            Err(SendError::Refused(_)) => "refused",
            Err(SendError::Unreachable(_)) => "deferred",
            Err(SendError::Invalid(_)) => "invalid",
            Err(SendError::Uncertain(_)) => "uncertain",
            Err(SendError::Revoked(_)) => "revoked",
            Err(SendError::SenderDown { .. }) => "down",
        })
        .collect()
}

async fn refused_and_unbuildable_messages_fail_alone(pipelining: bool) {
    let (port, seen) = scripted_server(pipelining).await;
    let mut session = session(port);
    let batch = [
        message("one@cafe.example"),
        message("refused@cafe.example"),
        message("two@cafe.example"),
        message("not an address"),
        message("three@cafe.example"),
    ];
    let results = session.send_all(&batch, &|| false).await;
    assert_eq!(
        kinds(&results),
        ["sent", "refused", "sent", "invalid", "sent"]
    );
    let Err(SendError::Refused(reason)) = &results[1] else {
        unreachable!()
    };
    assert!(reason.contains("No such user"), "{reason}");
    // The same connection goes on with the next run.
    let results = session
        .send_all(&[message("four@cafe.example")], &|| false)
        .await;
    assert_eq!(kinds(&results), ["sent"]);
    session.close().await;

    let seen = seen.lock().unwrap();
    let recipients: Vec<&str> = seen.messages.iter().map(|(to, _)| to.as_str()).collect();
    assert_eq!(
        recipients,
        [
            "one@cafe.example",
            "two@cafe.example",
            "three@cafe.example",
            "four@cafe.example"
        ]
    );
    for (to, content) in &seen.messages {
        assert!(
            content.contains(&format!("Subject: Bread for {to}")),
            "{content}"
        );
        assert!(
            content.contains("\r\n.a line that starts with a dot"),
            "{content}"
        );
    }
    assert_eq!(
        seen.commands
            .iter()
            .filter(|c| c.starts_with("EHLO"))
            .count(),
        1,
        "one connection, one EHLO: the extensions are read from it"
    );
    if pipelining {
        assert!(seen.pipelined_reads > 0, "{seen:?}");
    } else {
        assert_eq!(seen.pipelined_reads, 0, "{seen:?}");
        // Without pipelining a refused envelope is cleared before the next message.
        assert!(seen.commands.iter().any(|c| c == "RSET"), "{seen:?}");
    }
}

#[tokio::test]
async fn pipelined_refused_and_unbuildable_messages_fail_alone() {
    refused_and_unbuildable_messages_fail_alone(true).await;
}

#[tokio::test]
async fn without_pipelining_refused_and_unbuildable_messages_fail_alone() {
    refused_and_unbuildable_messages_fail_alone(false).await;
}

/// Remembers what each hand-over was told: the message, and those before it the server did not take.
#[derive(Default)]
struct Told(Vec<(usize, Vec<usize>)>);

impl Handoff for Told {
    async fn handing(
        &mut self,
        index: usize,
        _connection: u64,
        not_taken: Vec<usize>,
    ) -> Result<(), HandOverError> {
        self.0.push((index, not_taken));
        Ok(())
    }
}

async fn each_hand_over_tells_what_was_not_taken_since_the_last(pipelining: bool) {
    let (port, _) = scripted_server(pipelining).await;
    let mut session = session(port);
    let batch = [
        message("one@cafe.example"),
        message("refused@cafe.example"),
        message("not an address"),
        message("two@cafe.example"),
        message("refused-too@cafe.example"),
        message("three@cafe.example"),
    ];
    let mut told = Told::default();
    let results = session.send_recorded(&batch, &|| false, &mut told).await;
    assert_eq!(
        kinds(&results),
        ["sent", "refused", "invalid", "sent", "refused", "sent"]
    );
    // Only messages whose envelope was taken are handed over; the failures before each are told with it.
    assert_eq!(told.0, [(0, vec![]), (3, vec![1, 2]), (5, vec![4])]);
    session.close().await;
}

#[tokio::test]
async fn pipelined_each_hand_over_tells_what_was_not_taken_since_the_last() {
    each_hand_over_tells_what_was_not_taken_since_the_last(true).await;
}

#[tokio::test]
async fn without_pipelining_each_hand_over_tells_what_was_not_taken_since_the_last() {
    each_hand_over_tells_what_was_not_taken_since_the_last(false).await;
}

async fn a_deferral_stops_the_run_before_the_next_message(pipelining: bool) {
    let (port, seen) = scripted_server(pipelining).await;
    let mut session = session(port);
    let batch = [
        message("one@cafe.example"),
        message("later@cafe.example"),
        message("two@cafe.example"),
    ];
    let results = session.send_all(&batch, &|| false).await;
    assert_eq!(kinds(&results), ["sent", "deferred"]);
    // Nothing of the message after the deferral reached the server: it can wait in the queue.
    let seen = seen.lock().unwrap();
    assert!(
        !seen.commands.iter().any(|c| c.contains("two@cafe.example")),
        "{:?}",
        seen.commands
    );
    assert_eq!(seen.messages.len(), 1);
}

#[tokio::test]
async fn pipelined_a_deferral_stops_the_run_before_the_next_message() {
    a_deferral_stops_the_run_before_the_next_message(true).await;
}

#[tokio::test]
async fn without_pipelining_a_deferral_stops_the_run_before_the_next_message() {
    a_deferral_stops_the_run_before_the_next_message(false).await;
}

#[tokio::test]
async fn an_unreachable_server_is_a_sender_down_on_the_first_message_only() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut session = session(port);
    let results = session
        .send_all(
            &[message("one@cafe.example"), message("two@cafe.example")],
            &|| false,
        )
        .await;
    // Nothing was handed over: the sender is down (its failures in a row grow), and the rest wait.
    assert_eq!(kinds(&results), ["down"]);
}

async fn a_stop_ends_the_run_between_messages(pipelining: bool) {
    let (port, seen) = scripted_server(pipelining).await;
    let mut session = session(port);
    let batch = [
        message("one@cafe.example"),
        message("two@cafe.example"),
        message("three@cafe.example"),
    ];
    // The worker starts stopping once the server holds the first message.
    let stopping = || !seen.lock().unwrap().messages.is_empty();
    let results = session.send_all(&batch, &stopping).await;
    assert!(
        results.len() < batch.len() && results.iter().all(Result::is_ok),
        "{results:?}"
    );
    session.close().await;
    let seen = seen.lock().unwrap();
    // Every message with a result reached the server whole; the last one never started.
    assert_eq!(seen.messages.len(), results.len());
    assert!(
        !seen
            .commands
            .iter()
            .any(|c| c.contains("three@cafe.example")),
        "{:?}",
        seen.commands
    );
}

#[tokio::test]
async fn pipelined_a_stop_ends_the_run_between_messages() {
    a_stop_ends_the_run_between_messages(true).await;
}

#[tokio::test]
async fn without_pipelining_a_stop_ends_the_run_between_messages() {
    a_stop_ends_the_run_between_messages(false).await;
}

async fn quirky_servers_take_every_message(quirks: Quirks) -> Arc<Mutex<Seen>> {
    let (port, seen) = quirky_server(quirks).await;
    server(port).check().await.expect("the check passes");
    let mut session = session(port);
    let batch = [
        message("one@cafe.example"),
        message("two@cafe.example"),
        message("three@cafe.example"),
    ];
    let results = session.send_all(&batch, &|| false).await;
    assert_eq!(kinds(&results), ["sent", "sent", "sent"], "{quirks:?}");
    session.close().await;
    assert_eq!(seen.lock().unwrap().messages.len(), 3);
    seen
}

#[tokio::test]
async fn a_server_that_refuses_a_second_ehlo_takes_mail() {
    for pipelining in [true, false] {
        quirky_servers_take_every_message(Quirks {
            pipelining,
            refuses_second_ehlo: true,
            ..Quirks::default()
        })
        .await;
    }
}

#[tokio::test]
async fn a_helo_only_server_takes_mail_one_command_at_a_time() {
    let seen = quirky_servers_take_every_message(Quirks {
        helo_only: true,
        ..Quirks::default()
    })
    .await;
    let seen = seen.lock().unwrap();
    assert!(seen.commands.iter().any(|c| c.starts_with("HELO")));
    assert_eq!(seen.pipelined_reads, 0, "no PIPELINING without EHLO");
}

#[tokio::test]
async fn a_server_that_closes_after_each_message_gets_a_connection_for_each() {
    for pipelining in [true, false] {
        let seen = quirky_servers_take_every_message(Quirks {
            pipelining,
            closes_after_message: true,
            ..Quirks::default()
        })
        .await;
        // The check's connection, then one per message.
        assert_eq!(
            seen.lock().unwrap().connections,
            4,
            "pipelining {pipelining}"
        );
    }
}

/// Runs `work`, which must end well within a few of the session's one-second deadlines.
async fn promptly<T>(work: impl std::future::Future<Output = T>) -> T {
    let started = Instant::now();
    let result = tokio::time::timeout(Duration::from_secs(10), work)
        .await
        .expect("a silent server is given up on");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
    result
}

#[tokio::test]
async fn silent_servers_are_given_up_on_at_every_step() {
    for step in ["", "EHLO", "MAIL", "DATA"] {
        let (port, _) = quirky_server(Quirks {
            pipelining: true,
            silent_after: Some(step),
            ..Quirks::default()
        })
        .await;
        let check = promptly(server(port).check()).await;
        let expected = if matches!(step, "" | "EHLO") {
            "did not answer within 1 second"
        } else {
            ""
        };
        match check {
            Err(SendError::Unreachable(reason)) => {
                assert!(reason.contains(expected), "{step}: {reason}")
            }
            Ok(()) => assert!(!matches!(step, "" | "EHLO"), "{step}: the check passed"),
            other => panic!("{step}: {other:?}"),
        }
        let mut session = session(port);
        let results = promptly(session.send_all(
            &[message("one@cafe.example"), message("two@cafe.example")],
            &|| false,
        ))
        .await;
        // Silent before the session opened, the sender is down; later, the message is deferred.
        let expected = if matches!(step, "" | "EHLO") {
            "down"
        } else {
            "deferred"
        };
        assert_eq!(
            kinds(&results),
            [expected],
            "{step}: nothing was handed over"
        );
    }
}

#[tokio::test]
async fn a_message_whose_answer_never_comes_is_not_sent_again() {
    let (port, seen) = quirky_server(Quirks {
        pipelining: true,
        silent_after: Some("CONTENT"),
        ..Quirks::default()
    })
    .await;
    let mut session = session(port);
    let results = promptly(session.send_all(
        &[message("one@cafe.example"), message("two@cafe.example")],
        &|| false,
    ))
    .await;
    // The server may have it: retrying could deliver it twice.
    assert_eq!(kinds(&results), ["uncertain"]);
    let commands = seen.lock().unwrap().commands.clone();
    assert!(
        !commands.iter().any(|c| c.contains("two@cafe.example")),
        "{commands:?}"
    );
}

#[tokio::test]
async fn what_a_non_smtp_server_says_is_never_echoed() {
    let (port, _) = quirky_server(Quirks {
        banner: Some("HTTP/1.1 400 Bad Request\r\nServer: internal-billing-v7\r\n\r\n"),
        ..Quirks::default()
    })
    .await;
    let error = promptly(server(port).check())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("does not answer as an SMTP server"),
        "{error}"
    );
    assert!(
        !error.contains("internal-billing") && !error.contains("HTTP"),
        "{error}"
    );
}

#[tokio::test]
async fn loopback_and_private_senders_are_refused_unless_the_operator_allows_them() {
    let (port, seen) = scripted_server(true).await;
    for host in ["127.0.0.1", "localhost", "169.254.169.254", "10.0.0.1"] {
        let blocked = SmtpServer {
            host: host.into(),
            policy: AddressPolicy::default(),
            ..server(port)
        };
        let error = promptly(blocked.check()).await.unwrap_err();
        assert!(
            matches!(&error, SendError::Refused(reason) if reason.contains("loopback, private or link-local")),
            "{host}: {error:?}"
        );
    }
    assert_eq!(
        seen.lock().unwrap().connections,
        0,
        "nothing was connected to"
    );
    server(port)
        .check()
        .await
        .expect("an allowed host is reached");
}

/// Postfix's smtp-sink offers AUTH and answers it with "250 2.0.0 Ok": the check says what happened, and never
/// calls a success code a refusal.
#[tokio::test]
async fn a_server_that_answers_a_sign_in_without_confirming_it_is_named_as_such() {
    let sink = outreach_core::testing::SmtpSink::start(&[]);
    let signing_in = SmtpServer {
        username: Some("ada".into()),
        password: Some(outreach_core::platform::config::Secret::new("secret")),
        ..server(sink.port)
    };
    let error = promptly(signing_in.check()).await.unwrap_err();
    let SendError::Refused(reason) = &error else {
        panic!("{error:?}");
    };
    assert!(!reason.contains("refused"), "{reason}");
    assert!(
        reason.contains("did not confirm the sign-in")
            && reason.contains("250")
            && reason.contains("235"),
        "{reason}"
    );
}
