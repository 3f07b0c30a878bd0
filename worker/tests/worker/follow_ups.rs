//! Follow-ups through the real workers and a real SMTP server (issue 19): two schedulers and two workers send each
//! follow-up once, a worker stopped mid-run and started again sends nothing twice, and follow-ups share the monthly
//! quota and the sender's daily cap with first emails.

use std::sync::Arc;
use std::time::Duration;

use outreach_core::followups::queue_due_follow_ups;
use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::SendCampaignEmail;
use outreach_core::sending::progress::Progress;
use outreach_core::testing::{
    SmtpSink, at_any_time, each_backend, loopback_senders_allowed, loopback_smtp_sender,
    seed_campaign, seed_follow_ups,
};
use outreach_core::{Context, Db, Settings};

const LIMIT: Duration = Duration::from_secs(120);

fn context(db: Db) -> Context {
    Context::new(
        db,
        at_any_time(loopback_senders_allowed(Settings::default())),
        Arc::new(SystemClock),
    )
}

/// `email`'s account with a loopback SMTP sender whose daily cap is `daily_cap`: (user id, sender id).
async fn sender(db: &Db, email: &str, port: u16, daily_cap: i32) -> (i64, i64) {
    let mut config = loopback_smtp_sender(port);
    config.daily_cap = daily_cap;
    outreach_core::testing::seed_sender(db, email, &config).await
}

/// How many follow-ups each recipient received.
fn follow_ups_received(sink: &SmtpSink) -> std::collections::BTreeMap<String, usize> {
    let mut received = std::collections::BTreeMap::new();
    for message in sink
        .messages()
        .iter()
        .filter(|message| message.contains("Subject: Checking in"))
    {
        let rcpt = message
            .lines()
            .find_map(|line| line.strip_prefix("X-Rcpt-Args: <"))
            .and_then(|rest| rest.split('>').next())
            .unwrap_or_default()
            .to_string();
        *received.entry(rcpt).or_insert(0) += 1;
    }
    received
}

async fn wait_until(db: &Db, campaign_id: i64, done: impl Fn(&Progress) -> bool) -> Progress {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let progress = db.sending().campaign_progress(campaign_id).await.unwrap();
        if done(&progress) {
            return progress;
        }
        assert!(std::time::Instant::now() < deadline, "{progress:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_schedulers_and_two_workers_send_each_follow_up_once() {
    each_backend(|test_db| async move {
        let sink = SmtpSink::start(&[]);
        let (_, config_id) = sender(&test_db.db, "ada@example.org", sink.port, 10_000).await;
        // 30 first emails sent, 20 of them opened two days ago: 20 follow-ups due.
        let seeded = seed_follow_ups(
            &test_db.db,
            "ada@example.org",
            1_000,
            30,
            20,
            Some(config_id),
        )
        .await;
        let first = context(Db::connect(&test_db.url, 10).await.unwrap());
        let second = context(Db::connect(&test_db.url, 10).await.unwrap());
        let mut stops = Vec::new();
        let mut workers = Vec::new();
        for ctx in [&first, &second] {
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            stops.push(stop);
            workers.push(tokio::spawn(outreach_worker::run(
                ctx.clone(),
                async move {
                    stopped.await.ok();
                },
            )));
        }
        let (a, b) = tokio::join!(
            queue_due_follow_ups(&first, None),
            queue_due_follow_ups(&second, None)
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(
            a.len() + b.len(),
            20,
            "the two runs queue each follow-up once between them"
        );
        let done = wait_until(&test_db.db, seeded.campaign_id, |p| {
            p.sent == 50 && p.queued + p.sending == 0
        })
        .await;
        assert_eq!((done.failed, done.skipped), (0, 0));
        for stop in stops {
            stop.send(()).ok();
        }
        for worker in workers {
            worker.await.unwrap().unwrap();
        }
        // A later run finds nothing more to send.
        assert!(queue_due_follow_ups(&first, None).await.unwrap().is_empty());
        let received = follow_ups_received(&sink);
        assert_eq!(received.len(), 20, "{received:?}");
        assert!(received.values().all(|count| *count == 1), "{received:?}");
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_stopped_mid_follow_ups_and_started_again_sends_each_once() {
    each_backend(|test_db| async move {
        // Each message takes the sink a second, so the stop lands in the middle.
        let sink = SmtpSink::start(&["-w", "1"]);
        let (_, config_id) = sender(&test_db.db, "ada@example.org", sink.port, 10_000).await;
        let seeded =
            seed_follow_ups(&test_db.db, "ada@example.org", 1_000, 6, 6, Some(config_id)).await;
        let ctx = context(test_db.db.clone());
        assert_eq!(queue_due_follow_ups(&ctx, None).await.unwrap().len(), 6);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        wait_until(&test_db.db, seeded.campaign_id, |p| p.sent > 6).await;
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        let halfway = test_db
            .db
            .sending()
            .campaign_progress(seeded.campaign_id)
            .await
            .unwrap();
        assert!(halfway.queued > 0 && halfway.sending == 0, "{halfway:?}");
        // The scheduler's next minute queues nothing again; the restarted worker sends the rest.
        assert!(queue_due_follow_ups(&ctx, None).await.unwrap().is_empty());
        outreach_worker::run_until_idle(ctx, LIMIT).await.unwrap();
        let done = test_db
            .db
            .sending()
            .campaign_progress(seeded.campaign_id)
            .await
            .unwrap();
        assert_eq!(
            (done.sent, done.queued, done.failed),
            (12, 0, 0),
            "{done:?}"
        );
        let received = follow_ups_received(&sink);
        assert_eq!(
            (received.len(), received.values().all(|count| *count == 1)),
            (6, true),
            "{received:?}"
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_share_the_daily_cap_and_the_monthly_quota_with_first_emails() {
    each_backend(|test_db| async move {
        let sink = SmtpSink::start(&[]);
        let ctx = context(test_db.db.clone());
        // Ada's sender takes 5 a day; Bea may send 5 a month. Each sends 3 first emails today, then 4 follow-ups are due.
        let (_, ada_sender) = sender(&test_db.db, "ada@example.org", sink.port, 5).await;
        let (_, bea_sender) = sender(&test_db.db, "bea@example.org", sink.port, 10_000).await;
        let ada = seed_follow_ups(
            &test_db.db,
            "ada@example.org",
            1_000,
            4,
            4,
            Some(ada_sender),
        )
        .await;
        let bea = seed_follow_ups(&test_db.db, "bea@example.org", 5, 4, 4, Some(bea_sender)).await;
        for (email, limit, config) in [
            ("ada@example.org", 1_000, ada_sender),
            ("bea@example.org", 5, bea_sender),
        ] {
            let (_, campaign, ids) =
                seed_campaign(&test_db.db, email, limit, 3, Some(config), "<p>Hello</p>").await;
            ctx.queue
                .enqueue(
                    SendCampaignEmail {
                        campaign_id: Some(campaign),
                        message_ids: ids,
                        at_once: false,
                        branding: None,
                    },
                    None,
                )
                .await
                .unwrap();
        }
        outreach_worker::run_until_idle(ctx.clone(), LIMIT)
            .await
            .unwrap();
        assert_eq!(queue_due_follow_ups(&ctx, None).await.unwrap().len(), 8);
        outreach_worker::run_until_idle(ctx.clone(), LIMIT)
            .await
            .unwrap();
        for seeded in [&ada, &bea] {
            let progress = test_db
                .db
                .sending()
                .campaign_progress(seeded.campaign_id)
                .await
                .unwrap();
            // 4 seeded first emails, 2 follow-ups sent within the limit, 2 waiting for room.
            assert_eq!((progress.sent, progress.queued), (6, 2), "{progress:?}");
        }
        // Bea's monthly quota is used up: her campaign pauses until there is room.
        let reason = test_db
            .db
            .campaigns()
            .campaign_status_reason(bea.campaign_id)
            .await
            .unwrap()
            .unwrap_or_default();
        assert!(reason.contains("monthly email limit"), "{reason}");
        // Ada's mailbox sent its cap for today: her follow-ups wait for tomorrow, on the same mailbox, without
        // pausing the campaign, and say why.
        assert_eq!(
            test_db
                .db
                .campaigns()
                .campaign_status_reason(ada.campaign_id)
                .await
                .unwrap(),
            None
        );
        let queued = test_db
            .db
            .sending()
            .queued_message_ids(ada.campaign_id)
            .await
            .unwrap();
        let errors = test_db.db.sending().message_errors(&queued).await.unwrap();
        assert!(errors.is_empty(), "queued, not failed: {errors:?}");
        for id in queued {
            let message = test_db
                .db
                .sending()
                .load_message(id)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(message.config_id, Some(ada_sender));
        }
        assert_eq!(follow_ups_received(&sink).values().sum::<usize>(), 4);
        test_db.cleanup().await;
    })
    .await;
}
