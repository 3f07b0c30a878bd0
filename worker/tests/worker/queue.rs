//! The queue end to end on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: scheduled jobs fire once per tick and
//! run, failing jobs keep their error and back off, and two workers share a queue without running a job twice.

use outreach_core::platform::queue::JobStatus;
use std::sync::Arc;
use std::time::Duration;

use outreach_core::accounts::Grant;
use outreach_core::platform::clock::{Clock, DAY_MS, ManualClock, SystemClock};
use outreach_core::platform::config::AccountSettings;
use outreach_core::platform::jobs::{ExpireSubscriptions, Job};
use outreach_core::testing::each_backend;
use outreach_core::{Context, Db, Settings};

const LIMIT: Duration = Duration::from_secs(60);

fn context(db: &Db, clock: Arc<ManualClock>, max_attempts: usize) -> Context {
    let mut settings = Settings::default();
    settings.queue.max_attempts = max_attempts;
    settings.queue.heartbeat_seconds = 1;
    Context::new(db.clone(), settings, clock)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_expiry_fires_once_per_tick_and_ends_subscriptions() {
    each_backend(|test_db| async move {
        let clock = ManualClock::at(SystemClock.now_ms());
        let ctx = context(&test_db.db, clock.clone(), 3);
        let trial = Grant::FreeTrial
            .subscription(clock.now_ms() - 15 * DAY_MS, &AccountSettings::default());
        test_db
            .db
            .accounts()
            .set_subscription("ada@example.org", &trial, clock.now_ms())
            .await
            .unwrap();

        // The expiry and the minute's follow-up run (no mailbox to read here).
        assert_eq!(outreach_scheduler::tick(&ctx).await, 2);
        assert_eq!(
            outreach_scheduler::tick(&ctx).await,
            0,
            "{}: same tick, no second job",
            test_db.db.backend()
        );
        outreach_worker::run_until_idle(ctx.clone(), LIMIT)
            .await
            .unwrap();

        let jobs = ctx
            .queue
            .list(None, Some(ExpireSubscriptions::KIND), 10)
            .await
            .unwrap();
        assert_eq!(jobs.len(), 1);
        assert_eq!((jobs[0].status.as_str(), jobs[0].attempts), ("Done", 1));
        let ada = test_db
            .db
            .accounts()
            .find_user_by_email("ada@example.org")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            ada.subscription_status,
            outreach_core::accounts::SubscriptionStatus::Expired
        );

        clock.advance(DAY_MS);
        assert_eq!(
            outreach_scheduler::tick(&ctx).await,
            2,
            "the next day is a new tick (and a new minute)"
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_job_keeps_its_error_and_waits_before_a_retry() {
    each_backend(|test_db| async move {
        let clock = ManualClock::at(SystemClock.now_ms());
        let ctx = context(&test_db.db, clock.clone(), 3);
        test_db
            .execute("alter table users rename to users_elsewhere")
            .await;
        ctx.queue
            .enqueue(
                ExpireSubscriptions {
                    tick: "failing".into(),
                },
                None,
            )
            .await
            .unwrap();

        // The worker fails it once; the backoff (written before apalis marks it failed) keeps it out of the fetch.
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        let failed = loop {
            let jobs = ctx
                .queue
                .list(Some(JobStatus::Failed), None, 10)
                .await
                .unwrap();
            if let Some(job) = jobs.into_iter().next() {
                break job;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        stop.send(()).ok();
        worker.await.unwrap().unwrap();

        let backend = test_db.db.backend();
        let job = ctx.queue.show(&failed.id).await.unwrap().unwrap();
        assert_eq!(
            (
                job.row.status.as_str(),
                job.row.attempts,
                job.row.max_attempts
            ),
            ("Failed", 1, 3),
            "{backend}"
        );
        assert!(
            job.row
                .last_result
                .as_deref()
                .unwrap_or_default()
                .contains("users"),
            "{backend}: {:?}",
            job.row.last_result
        );
        let wait = job.row.run_at.unwrap() * 1000 - clock.now_ms();
        assert!(
            (20_000..=31_000).contains(&wait),
            "{backend}: first retry after ~30 s, got {wait} ms"
        );
        assert!(job.payload.unwrap().contains("failing"));

        // Repaired and retried by the operator: it runs at once and succeeds.
        test_db
            .execute("alter table users_elsewhere rename to users")
            .await;
        assert_eq!(
            ctx.queue
                .retry(Some(&failed.id), None, clock.now_ms())
                .await
                .unwrap(),
            vec![failed.id.clone()]
        );
        assert!(
            ctx.queue
                .retry(Some(&failed.id), None, clock.now_ms())
                .await
                .unwrap()
                .is_empty(),
            "only failed jobs"
        );
        outreach_worker::run_until_idle(ctx.clone(), LIMIT)
            .await
            .unwrap();
        let done = ctx.queue.show(&failed.id).await.unwrap().unwrap();
        assert_eq!(
            (done.row.status.as_str(), done.row.attempts),
            ("Done", 1),
            "{backend}"
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_share_the_queue_and_run_each_job_once() {
    each_backend(|test_db| async move {
        let clock = ManualClock::at(SystemClock.now_ms());
        let ctx = context(&test_db.db, clock, 3);
        for index in 0..300 {
            ctx.queue
                .enqueue(
                    ExpireSubscriptions {
                        tick: format!("job-{index}"),
                    },
                    None,
                )
                .await
                .unwrap();
        }
        let (first, second) = tokio::join!(
            outreach_worker::run_until_idle(ctx.clone(), LIMIT),
            outreach_worker::run_until_idle(ctx.clone(), LIMIT)
        );
        first.unwrap();
        second.unwrap();
        let jobs = ctx.queue.list(None, None, 1000).await.unwrap();
        assert_eq!(jobs.len(), 300);
        let odd: Vec<_> = jobs
            .iter()
            .filter(|job| job.status != JobStatus::Done || job.attempts != 1)
            .collect();
        assert!(
            odd.is_empty(),
            "{}: every job ran exactly once, but {odd:?}",
            test_db.db.backend()
        );
        test_db.cleanup().await;
    })
    .await;
}

/// Waits until the job of `tick` has `status`.
async fn job_of(
    ctx: &Context,
    tick: &str,
    status: JobStatus,
) -> outreach_core::platform::queue::JobDetail {
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        for row in ctx.queue.list(Some(status), None, 100).await.unwrap() {
            let job = ctx.queue.show(&row.id).await.unwrap().unwrap();
            if job.payload.as_deref().unwrap_or_default().contains(tick) {
                return job;
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no {status} job of {tick}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_that_panics_fails_with_its_message_and_the_worker_goes_on() {
    each_backend(|test_db| async move {
        let clock = ManualClock::at(SystemClock.now_ms());
        let ctx = context(&test_db.db, clock, 1);
        let backend = test_db.db.backend();
        outreach_core::platform::faults::arm(
            "job",
            r#"ExpireSubscriptions:{"tick":"panics"}"#,
            outreach_core::platform::faults::Fault::Panic,
        );
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let worker = tokio::spawn(outreach_worker::run(ctx.clone(), async move {
            stopped.await.ok();
        }));
        let expire = |tick: &str| ExpireSubscriptions { tick: tick.into() };
        ctx.queue.enqueue(expire("panics"), None).await.unwrap();
        let panicked = job_of(&ctx, "panics", JobStatus::Failed).await;
        let error = panicked.row.last_result.unwrap_or_default();
        assert!(
            error.contains("the job panicked") && error.contains("fault injected at job"),
            "{backend}: {error}"
        );
        // The same worker takes the next job of that kind.
        ctx.queue.enqueue(expire("after"), None).await.unwrap();
        job_of(&ctx, "after", JobStatus::Done).await;
        stop.send(()).ok();
        worker.await.unwrap().unwrap();
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_row_that_cannot_be_read_is_set_aside_and_the_rest_run() {
    each_backend(|test_db| async move {
        let clock = ManualClock::at(SystemClock.now_ms());
        let ctx = context(&test_db.db, clock, 3);
        let backend = test_db.db.backend();
        for tick in ["not-json", "wrong-shape", "bad-id", "fine"] {
            ctx.queue
                .enqueue(ExpireSubscriptions { tick: tick.into() }, None)
                .await
                .unwrap();
        }
        // Rows written by hand, or by a version whose payloads differ: one is not JSON, one not this job's shape.
        let (not_json, wrong_shape) = match test_db.db.backend() {
            "postgres" => (
                "update apalis.jobs set job = convert_to('not json', 'UTF8') where convert_from(job, 'UTF8') like '%not-json%'",
                "update apalis.jobs set job = convert_to('{\"day\":1}', 'UTF8') where convert_from(job, 'UTF8') like '%wrong-shape%'",
            ),
            _ => (
                "update Jobs set job = cast('not json' as blob) where cast(job as text) like '%not-json%'",
                "update Jobs set job = cast('{\"day\":1}' as blob) where cast(job as text) like '%wrong-shape%'",
            ),
        };
        // Issue 80.3: and one whose id is not a ULID, which apalis cannot even decode.
        let bad_id = match test_db.db.backend() {
            "postgres" => "update apalis.jobs set id = 'not-a-ulid' where convert_from(job, 'UTF8') like '%bad-id%'",
            _ => "update Jobs set id = 'not-a-ulid' where cast(job as text) like '%bad-id%'",
        };
        test_db.execute(not_json).await;
        test_db.execute(wrong_shape).await;
        test_db.execute(bad_id).await;
        outreach_worker::run_until_idle(ctx.clone(), LIMIT)
            .await
            .unwrap();
        let jobs = ctx.queue.list(None, None, 10).await.unwrap();
        let mut statuses: Vec<(String, String)> = Vec::new();
        for row in jobs {
            let job = ctx.queue.show(&row.id).await.unwrap().unwrap();
            statuses.push((job.payload.unwrap_or_default(), row.status.to_string()));
            if row.status == JobStatus::Failed {
                let error = row.last_result.unwrap_or_default();
                assert!(error.contains("cannot be read"), "{backend}: {error}");
            }
        }
        statuses.sort();
        assert_eq!(
            statuses,
            vec![
                ("not json".to_string(), "Failed".to_string()),
                (r#"{"day":1}"#.to_string(), "Failed".to_string()),
                (r#"{"tick":"bad-id"}"#.to_string(), "Failed".to_string()),
                (r#"{"tick":"fine"}"#.to_string(), "Done".to_string()),
            ],
            "{backend}"
        );
        test_db.cleanup().await;
    })
    .await;
}
