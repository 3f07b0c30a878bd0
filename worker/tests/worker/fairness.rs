//! Fair sending across users, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: users whose servers stall share
//! the send workers and never hold up another user's mail, and a slow server shortens only its own batches.

use std::sync::Arc;
use std::time::Duration;

use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::SendCampaignEmail;
use outreach_core::sending::messages::MessageStatus;
use outreach_core::testing::{
    SmtpSink, at_any_time, each_backend, loopback_senders_allowed, seed_campaign,
};
use outreach_core::{Context, Settings};

use super::sending::{LIMIT, campaign, loopback_sender, silent_server};

/// Issue 29.3: Eve's two senders' servers never answer (as one answering each step in 25 s of a 30 s deadline), and
/// her eight batches would take every send worker; alone she holds half of them, so Ada's mail goes out while
/// Eve's still wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_users_slow_senders_never_hold_up_another_users_mail() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (_, first) = loopback_sender(db, "eve@example.org", silent_server().await).await;
        let (_, second) = loopback_sender(db, "eve@example.org", silent_server().await).await;
        let ctx = {
            let mut settings = at_any_time(loopback_senders_allowed(Settings::default()));
            settings.sending.timeout_seconds = 10;
            Context::new(db.clone(), settings, Arc::new(SystemClock))
        };
        let mut eves = Vec::new();
        for n in 0..8 {
            let sender = if n % 2 == 0 { first } else { second };
            let (_, campaign_id, ids) =
                seed_campaign(db, "eve@example.org", 100, 1, Some(sender), "<p>Hi</p>").await;
            eves.extend(ids.iter().copied());
            let job = SendCampaignEmail {
                campaign_id: Some(campaign_id),
                message_ids: ids,
                at_once: false,
                branding: None,
            };
            ctx.queue
                .enqueue(job, Some(&format!("eve-{n}")))
                .await
                .unwrap();
        }
        let sink = SmtpSink::start(&[]);
        let (_, working) = loopback_sender(db, "ada@example.org", sink.port).await;
        let (_, ada_campaign, ids) = campaign(db, 100, 1, Some(working)).await;
        let job = SendCampaignEmail {
            campaign_id: Some(ada_campaign),
            message_ids: ids,
            at_once: false,
            branding: None,
        };
        ctx.queue.enqueue(job, Some("ada")).await.unwrap();

        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        let deadline = std::time::Instant::now() + LIMIT;
        while db
            .sending()
            .campaign_progress(ada_campaign)
            .await
            .unwrap()
            .sent
            < 1
        {
            assert!(
                std::time::Instant::now() < deadline,
                "Ada's campaign never went out"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let errors: i64 = outreach_core::on_db!(db, pool => sqlx::query_scalar(
            "select count(*) from sent_emails where error is not null").fetch_one(pool).await)
        .unwrap();
        let mut waiting = 0;
        for id in &eves {
            let message = db.sending().load_message(*id).await.unwrap().unwrap();
            waiting += usize::from(message.status == MessageStatus::Sending);
        }
        assert_eq!(
            errors,
            0,
            "{}: Ada's mail waited for Eve's servers to time out",
            db.backend()
        );
        assert!(
            (1..=4).contains(&waiting),
            "{}: Eve holds at most half of the eight workers, not {waiting}",
            db.backend()
        );
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}

/// Issue 80.1: three users' senders stall (their servers never answer within the 10 s deadline) and their 24 batches
/// would take every send worker; a fourth user's mail still goes out before any of those servers times out. The
/// stalled users share the workers, each at most an even share with room for one more user, and one worker stays
/// free for a user with none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_users_stalled_senders_never_hold_up_a_fourth_users_mail() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let ctx = {
            let mut settings = at_any_time(loopback_senders_allowed(Settings::default()));
            settings.sending.timeout_seconds = 10;
            Context::new(db.clone(), settings, Arc::new(SystemClock))
        };
        for user in ["eve@example.org", "mal@example.org", "oscar@example.org"] {
            let (_, first) = loopback_sender(db, user, silent_server().await).await;
            let (_, second) = loopback_sender(db, user, silent_server().await).await;
            for n in 0..8 {
                let sender = if n % 2 == 0 { first } else { second };
                let (_, campaign_id, ids) =
                    seed_campaign(db, user, 100, 1, Some(sender), "<p>Hi</p>").await;
                let job = SendCampaignEmail {
                    campaign_id: Some(campaign_id),
                    message_ids: ids,
                    at_once: false,
                    branding: None,
                };
                ctx.queue
                    .enqueue(job, Some(&format!("{user}-{n}")))
                    .await
                    .unwrap();
            }
        }
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        // The stalled batches take their workers first; then Ada's mail comes.
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let sink = SmtpSink::start(&[]);
        let (_, working) = loopback_sender(db, "ada@example.org", sink.port).await;
        let (_, ada_campaign, ids) = campaign(db, 100, 3, Some(working)).await;
        let job = SendCampaignEmail {
            campaign_id: Some(ada_campaign),
            message_ids: ids,
            at_once: false,
            branding: None,
        };
        let queued_at = std::time::Instant::now();
        ctx.queue.enqueue(job, Some("ada")).await.unwrap();
        let deadline = queued_at + LIMIT;
        while db
            .sending()
            .campaign_progress(ada_campaign)
            .await
            .unwrap()
            .sent
            < 3
        {
            assert!(
                std::time::Instant::now() < deadline,
                "Ada's campaign never went out"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let waited = queued_at.elapsed();
        // Before any stalled server gave up (10 s), Ada's three went out.
        let errors: i64 = outreach_core::on_db!(db, pool => sqlx::query_scalar(
            "select count(*) from sent_emails where error is not null").fetch_one(pool).await)
        .unwrap();
        assert_eq!(
            errors,
            0,
            "{}: Ada's mail waited {waited:?}, for the stalled servers to time out",
            db.backend()
        );
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}

/// An SMTP server on loopback that takes every message but answers its end of data only after `delay`; it counts
/// the messages it took.
async fn slow_server(delay: Duration) -> (u16, Arc<std::sync::atomic::AtomicUsize>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = taken.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let counter = counter.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 slow.example ESMTP\r\n").await?;
                let mut in_data = false;
                while let Some(line) = lines.next_line().await? {
                    let reply: &[u8] = if in_data {
                        if line != "." {
                            continue;
                        }
                        in_data = false;
                        tokio::time::sleep(delay).await;
                        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        b"250 taken\r\n"
                    } else {
                        match line.get(..4).map(str::to_ascii_uppercase).as_deref() {
                            Some("DATA") => {
                                in_data = true;
                                b"354 go on\r\n"
                            }
                            Some("QUIT") => {
                                write.write_all(b"221 bye\r\n").await?;
                                break;
                            }
                            _ => b"250 ok\r\n",
                        }
                    };
                    write.write_all(reply).await?;
                }
                std::io::Result::Ok(())
            });
        }
    });
    (port, taken)
}

/// Issue 80.1: a slow server shortens its own batches, never everyone's. With one send worker, Eve's batch of ten
/// through a server that takes 400 ms a message hands its rest to a new job once its turn (1 s) is over, so Ada's
/// mail, queued behind it, goes out before Eve's last; every one of Eve's goes out once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_server_shortens_its_own_batches_and_the_next_job_takes_its_turn() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let ctx = {
            let mut settings = at_any_time(loopback_senders_allowed(Settings::default()));
            settings.queue.concurrency = 1;
            settings.sending.batch_seconds = 1;
            Context::new(db.clone(), settings, Arc::new(SystemClock))
        };
        let (slow_port, taken) = slow_server(Duration::from_millis(400)).await;
        let (_, slow) = loopback_sender(db, "eve@example.org", slow_port).await;
        let (_, eve_campaign, ids) =
            seed_campaign(db, "eve@example.org", 100, 10, Some(slow), "<p>Hi</p>").await;
        let job = SendCampaignEmail {
            campaign_id: Some(eve_campaign),
            message_ids: ids,
            at_once: false,
            branding: None,
        };
        ctx.queue.enqueue(job, Some("eve")).await.unwrap();
        let sink = SmtpSink::start(&[]);
        let (_, working) = loopback_sender(db, "ada@example.org", sink.port).await;
        let (_, ada_campaign, ids) = campaign(db, 100, 1, Some(working)).await;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        // Eve's batch has begun before Ada's comes.
        let deadline = std::time::Instant::now() + LIMIT;
        while taken.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "Eve's batch never began"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let job = SendCampaignEmail {
            campaign_id: Some(ada_campaign),
            message_ids: ids,
            at_once: false,
            branding: None,
        };
        ctx.queue.enqueue(job, Some("ada")).await.unwrap();
        while db
            .sending()
            .campaign_progress(ada_campaign)
            .await
            .unwrap()
            .sent
            < 1
        {
            assert!(
                std::time::Instant::now() < deadline,
                "Ada's campaign never went out"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let eves_by_then = db
            .sending()
            .campaign_progress(eve_campaign)
            .await
            .unwrap()
            .sent;
        assert!(
            eves_by_then < 10,
            "{}: Ada's mail waited for all of Eve's slow batch",
            db.backend()
        );
        while db
            .sending()
            .campaign_progress(eve_campaign)
            .await
            .unwrap()
            .sent
            < 10
        {
            assert!(
                std::time::Instant::now() < deadline,
                "Eve's campaign never finished"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            taken.load(std::sync::atomic::Ordering::SeqCst),
            10,
            "{}: each of Eve's went out once",
            db.backend()
        );
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}
