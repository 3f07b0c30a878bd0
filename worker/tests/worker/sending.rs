//! Sending under load and failure, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: three workers racing one
//! account's monthly quota never send one message over it, and a worker stopped in the middle of a campaign and
//! started again sends every recipient exactly once (counted at a real SMTP server, Postfix's smtp-sink).

use std::sync::Arc;
use std::time::Duration;

use outreach_core::campaigns::CampaignStatus;
use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::SendCampaignEmail;
use outreach_core::sending::handover::HandOver;
use outreach_core::sending::messages::MessageStatus;
use outreach_core::testing::{
    SmtpSink, at_any_time, each_backend, loopback_senders_allowed, loopback_smtp_sender,
    seed_campaign, seed_sender,
};
use outreach_core::{Context, Db, Settings};

pub(super) const LIMIT: Duration = Duration::from_secs(120);

/// The seeded campaign of these tests: `recipients` queued messages for ada@example.org.
pub(super) async fn campaign(
    db: &Db,
    limit: i64,
    recipients: usize,
    config_id: Option<i64>,
) -> (i64, i64, Vec<i64>) {
    seed_campaign(
        db,
        "ada@example.org",
        limit,
        recipients,
        config_id,
        "<p>Hello</p>",
    )
    .await
}

/// A loopback SMTP sender of `email`'s account (created on the way): (user id, sender id).
pub(super) async fn loopback_sender(db: &Db, email: &str, port: u16) -> (i64, i64) {
    seed_sender(db, email, &loopback_smtp_sender(port)).await
}

fn context(url_db: Db) -> Context {
    Context::new(
        url_db,
        at_any_time(loopback_senders_allowed(Settings::default())),
        Arc::new(SystemClock),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_racing_one_quota_never_send_over_it() {
    each_backend(|test_db| async move {
        let (user_id, campaign_id, ids) = campaign(&test_db.db, 7, 40, None).await;
        // Every job holds every message (in a different order), so the three workers compete for each claim.
        let mut workers = Vec::new();
        for worker in 0..3 {
            let ctx = context(Db::connect(&test_db.url, 10).await.unwrap());
            let mut batch = ids.clone();
            batch.rotate_left(worker * 13);
            ctx.queue
                .enqueue(
                    SendCampaignEmail {
                        campaign_id: Some(campaign_id),
                        message_ids: batch,
                        at_once: false,
                        branding: None,
                    },
                    Some(&format!("race:{worker}")),
                )
                .await
                .unwrap();
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            workers.push((
                stop,
                tokio::spawn(outreach_worker::run(ctx, async move {
                    stopped.await.ok();
                })),
            ));
        }
        let deadline = std::time::Instant::now() + LIMIT;
        let progress = loop {
            let progress = test_db
                .db
                .sending()
                .campaign_progress(campaign_id)
                .await
                .unwrap();
            let status = test_db
                .db
                .campaigns()
                .find_campaign(campaign_id, user_id)
                .await
                .unwrap()
                .unwrap()
                .status;
            if status == CampaignStatus::Paused
                && progress.sending == 0
                && progress.sent + progress.queued == 40
            {
                // Let any claim in flight finish before the count is read.
                tokio::time::sleep(Duration::from_millis(300)).await;
                break test_db
                    .db
                    .sending()
                    .campaign_progress(campaign_id)
                    .await
                    .unwrap();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no pause: {status} {progress:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        for (stop, worker) in workers {
            stop.send(()).ok();
            worker.await.unwrap().unwrap();
        }
        assert_eq!(
            (progress.sent, progress.sending, progress.queued),
            (7, 0, 33),
            "{}: {progress:?}",
            test_db.db.backend()
        );
        let reason = test_db
            .db
            .campaigns()
            .campaign_status_reason(campaign_id)
            .await
            .unwrap()
            .unwrap();
        assert!(reason.contains("monthly email limit"), "{reason}");
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_stopped_mid_campaign_and_started_again_sends_each_recipient_once() {
    each_backend(|test_db| async move {
        // Each message takes the sink a second, so the stop lands in the middle of the batch.
        let sink = SmtpSink::start(&["-w", "1"]);
        let config = loopback_smtp_sender(sink.port);
        let now = outreach_core::platform::clock::Clock::now_ms(&SystemClock);
        let user = test_db
            .db
            .accounts()
            .upsert_user_on_sign_in("ada@example.org", None, None, now)
            .await
            .unwrap();
        let config_id = test_db
            .db
            .sending()
            .insert_email_config(user.id, &config, now)
            .await
            .unwrap();
        let (_, campaign_id, ids) = campaign(&test_db.db, 100, 6, Some(config_id)).await;
        let ctx = context(test_db.db.clone());
        ctx.queue
            .enqueue(
                SendCampaignEmail {
                    campaign_id: Some(campaign_id),
                    message_ids: ids.clone(),
                    at_once: false,
                    branding: None,
                },
                Some("first"),
            )
            .await
            .unwrap();

        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        let deadline = std::time::Instant::now() + LIMIT;
        while test_db
            .db
            .sending()
            .campaign_progress(campaign_id)
            .await
            .unwrap()
            .sent
            < 1
        {
            assert!(std::time::Instant::now() < deadline, "nothing sent");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        let halfway = test_db
            .db
            .sending()
            .campaign_progress(campaign_id)
            .await
            .unwrap();
        assert_eq!(
            halfway.sending, 0,
            "the message in flight finished: {halfway:?}"
        );
        assert!(halfway.queued > 0, "stopped before the end: {halfway:?}");

        outreach_worker::run_until_idle(ctx, LIMIT).await.unwrap();
        let done = test_db
            .db
            .sending()
            .campaign_progress(campaign_id)
            .await
            .unwrap();
        assert_eq!(
            (done.sent, done.queued, done.sending, done.failed),
            (6, 0, 0, 0),
            "{done:?}"
        );
        let received = sink.messages();
        for index in 0..6 {
            let rcpt = format!("X-Rcpt-Args: <owner{index}@cafe{index}.example>");
            assert_eq!(
                received
                    .iter()
                    .filter(|message| message.contains(&rcpt))
                    .count(),
                1,
                "{rcpt}"
            );
        }
        assert_eq!(received.len(), 6);
        test_db.cleanup().await;
    })
    .await;
}

/// A TCP server on loopback that accepts connections and never says a word.
pub(super) async fn silent_server() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_whose_server_hangs_never_holds_every_worker() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        // Eve's sender accepts connections and never answers; she has eight campaigns waiting, one job each.
        let (_, hanging) = loopback_sender(db, "eve@example.org", silent_server().await).await;
        let ctx = {
            let mut settings = at_any_time(loopback_senders_allowed(Settings::default()));
            settings.sending.timeout_seconds = 5;
            Context::new(db.clone(), settings, Arc::new(SystemClock))
        };
        let mut eves = Vec::new();
        for n in 0..8 {
            let (_, campaign_id, ids) =
                seed_campaign(db, "eve@example.org", 100, 1, Some(hanging), "<p>Hi</p>").await;
            eves.extend(ids.iter().copied());
            ctx.queue
                .enqueue(
                    SendCampaignEmail {
                        campaign_id: Some(campaign_id),
                        message_ids: ids,
                        at_once: false,
                        branding: None,
                    },
                    Some(&format!("eve-{n}")),
                )
                .await
                .unwrap();
        }
        // Then Ada's campaign, through a working server.
        let sink = SmtpSink::start(&[]);
        let (_, working) = loopback_sender(db, "ada@example.org", sink.port).await;
        let (_, ada_campaign, ids) = campaign(db, 100, 1, Some(working)).await;
        ctx.queue
            .enqueue(
                SendCampaignEmail {
                    campaign_id: Some(ada_campaign),
                    message_ids: ids,
                    at_once: false,
                    branding: None,
                },
                Some("ada"),
            )
            .await
            .unwrap();

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
        // Ada's email went out while Eve's sends were still waiting for her server, not after they gave up.
        let mut waiting = 0;
        for id in &eves {
            let message = db.sending().load_message(*id).await.unwrap().unwrap();
            waiting += usize::from(message.status == MessageStatus::Sending);
        }
        let errors: i64 = outreach_core::on_db!(db, pool => sqlx::query_scalar(
            "select count(*) from sent_emails where error is not null").fetch_one(pool).await)
        .unwrap();
        assert!(
            waiting > 0 && errors == 0,
            "{}: {waiting} waiting, {errors} errors",
            db.backend()
        );
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_workers_sends_are_settled_by_how_far_each_got() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let now = outreach_core::platform::clock::Clock::now_ms(&SystemClock);
        let sink = SmtpSink::start(&[]);
        let (_, config_id) = loopback_sender(db, "ada@example.org", sink.port).await;
        let (user_id, campaign_id, ids) = campaign(db, 100, 6, Some(config_id)).await;
        // A worker claimed the campaign's messages a moment ago and was killed; its lease runs out in 1.5 s.
        let limits = outreach_core::sending::messages::Limits {
            monthly_limit: 100,
            daily_cap: 100,
        };
        let claim = db
            .sending()
            .claim_messages(
                user_id,
                Some(config_id),
                &ids,
                limits,
                "crashed-worker",
                now,
            )
            .await
            .unwrap();
        assert_eq!(claim.claimed.len(), 6);
        db.sending()
            .renew_lease("crashed-worker", now + 1_500)
            .await
            .unwrap();
        // On its first connection it handed over a window of two messages: the first was refused after its
        // content, the second taken; then a window of one under way, whose record unmarked the refused one, and the
        // next window recorded ahead of it. On its second connection, a window of one under way. One was never
        // tried.
        let sending = db.sending();
        let handed = |id: i64, connection: &str, seq: i64| {
            HandOver::handed(
                id,
                connection.to_string(),
                seq,
                "m@bakery.example".to_string(),
            )
        };
        sending
            .hand_over(&[
                handed(ids[0], "crashed-worker/1", 1),
                handed(ids[1], "crashed-worker/1", 1),
            ])
            .await
            .unwrap();
        sending
            .hand_over(&[
                HandOver::not_taken(ids[0]),
                handed(ids[2], "crashed-worker/1", 2),
            ])
            .await
            .unwrap();
        sending
            .hand_over(&[handed(ids[3], "crashed-worker/1", 3)])
            .await
            .unwrap();
        sending
            .hand_over(&[handed(ids[4], "crashed-worker/2", 4)])
            .await
            .unwrap();

        // A worker started again right away, with two-second leases.
        let ctx = {
            let mut settings = at_any_time(loopback_senders_allowed(Settings::default()));
            settings.queue.lease_seconds = 2;
            Context::new(db.clone(), settings, Arc::new(SystemClock))
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        // The reconciliation settles the sends and queues the untried ones, which go out; the campaign finishes.
        let deadline = std::time::Instant::now() + LIMIT;
        let progress = loop {
            let progress = db.sending().campaign_progress(campaign_id).await.unwrap();
            let (_, status) = test_db_status(db, campaign_id).await;
            if progress.sending + progress.queued == 0 && status == "completed" {
                break progress;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{progress:?} {status} on {}",
                db.backend()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        // The refused one and the untried one go out now; the taken one is sent; the three under way are in doubt,
        // never resent.
        assert_eq!(
            (progress.sent, progress.uncertain, progress.failed),
            (3, 3, 0),
            "{progress:?} on {}",
            db.backend()
        );
        let delivered: Vec<String> = sink
            .messages()
            .iter()
            .filter_map(|message| {
                message
                    .lines()
                    .find(|line| line.starts_with("To: "))
                    .map(str::to_string)
            })
            .collect();
        assert_eq!(delivered.len(), 2, "{delivered:?}");
        assert!(
            db.sending()
                .delete_email_config(user_id, config_id, now)
                .await
                .unwrap()
        );
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}

/// A campaign's name and status.
async fn test_db_status(db: &Db, campaign_id: i64) -> (String, String) {
    outreach_core::on_db!(db, pool => sqlx::query_as("select name, status from campaigns where id = $1")
        .bind(campaign_id).fetch_one(pool).await)
    .unwrap()
}
