//! Follow-ups at scale (issue 19): a campaign of `BENCH_MESSAGES` (default 1,000,000) sent first emails of which
//! `BENCH_DUE` (default 20,000) were opened two days ago, so their one-day follow-up is due. Measures the
//! scheduler's minute, which finds the due follow-ups and queues them (their message rows and sending jobs), then
//! sends them through SMTP to Postfix's `smtp-sink` on loopback, and, for the ratio, the same number of first emails
//! through the same pipeline. Pacing is off and the campaigns send at any time: this measures the pipeline. Then the
//! scheduler's whole tick with `BENCH_AUTOMATIONS` (default 1,000) active automations starting their day. SQLite by
//! default; `BENCH_DATABASE_URL` for PostgreSQL.

use std::sync::Arc;
use std::time::{Duration, Instant};

use outreach_core::automations::Settings as AutomationSettings;
use outreach_core::followups::queue_due_follow_ups;
use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::jobs::SendCampaignEmail;
use outreach_core::testing::goals::{Goal, env_setting, report};
use outreach_core::testing::{
    SmtpSink, TestDb, at_any_time, loopback_senders_allowed, loopback_smtp_sender, seed_campaign,
    seed_follow_ups,
};
use outreach_core::{Context, Db, Settings};

#[tokio::main]
async fn main() {
    let (messages, due) = (
        env_setting("BENCH_MESSAGES").unwrap_or(1_000_000),
        env_setting("BENCH_DUE").unwrap_or(20_000),
    );
    let test_db = match std::env::var("BENCH_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
    {
        Some(url) => TestDb::postgres(&url).await,
        None => TestDb::sqlite().await,
    };
    let settings = at_any_time(loopback_senders_allowed(Settings::default()));
    let db = Db::connect(&test_db.url, settings.database.max_connections)
        .await
        .expect("connects");
    let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));
    let sink = SmtpSink::start_counting();
    let now = outreach_core::platform::clock::Clock::now_ms(&SystemClock);
    let user = db
        .accounts()
        .upsert_user_on_sign_in("bench@example.org", None, None, now)
        .await
        .unwrap();
    let config_id = db
        .sending()
        .insert_email_config(user.id, &loopback_smtp_sender(sink.port), now)
        .await
        .unwrap();

    let seeding = Instant::now();
    let seeded = seed_follow_ups(
        &db,
        "bench@example.org",
        100_000_000,
        messages,
        due,
        Some(config_id),
    )
    .await;
    // PostgreSQL's autovacuum analyses a table after a change this large; the benchmark does not wait for it.
    if let Db::Postgres(pool) = &db {
        sqlx::query("analyze").execute(pool).await.unwrap();
    }
    println!(
        "{messages} sent messages, {due} follow-ups due, {} database (seeded in {:.1} s)",
        db.backend(),
        seeding.elapsed().as_secs_f64()
    );

    let tick = Instant::now();
    let queued = queue_due_follow_ups(&ctx, None).await.expect("the run");
    let tick = tick.elapsed();
    assert_eq!(
        queued.len(),
        due,
        "every due follow-up is queued in one run"
    );
    println!(
        "scheduler run: {:>8.0} ms to find and queue {due} follow-ups",
        tick.as_secs_f64() * 1000.0
    );
    let what = |figure: &str| format!("{figure}, {messages} messages, {due} due, {}", db.backend());
    report(
        "S9",
        &what("follow-up run"),
        tick.as_secs_f64() * 1000.0,
        "ms",
        Goal::AtMost(1000.0),
    );

    let started = Instant::now();
    outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(3_600))
        .await
        .unwrap();
    let follow_up_rate = due as f64 / started.elapsed().as_secs_f64();
    let progress = db
        .sending()
        .campaign_progress(seeded.campaign_id)
        .await
        .unwrap();
    assert_eq!(progress.sent as usize, messages + due, "{progress:?}");

    let (_, campaign, ids) = seed_campaign(
        &db,
        "bench@example.org",
        100_000_000,
        due,
        Some(config_id),
        "<p>Hello [business name]</p>",
    )
    .await;
    for batch in ids.chunks(SendCampaignEmail::BATCH) {
        let job = SendCampaignEmail {
            campaign_id: Some(campaign),
            message_ids: batch.to_vec(),
            at_once: false,
            branding: None,
        };
        ctx.queue.enqueue(job, None).await.unwrap();
    }
    let started = Instant::now();
    outreach_worker::run_until_idle(ctx.clone(), Duration::from_secs(3_600))
        .await
        .unwrap();
    let first_rate = due as f64 / started.elapsed().as_secs_f64();
    println!("follow-ups:   {follow_up_rate:>8.0} messages/s through SMTP");
    println!("first emails: {first_rate:>8.0} messages/s through SMTP (same pipeline, same sink)");
    println!("ratio:        {:.2}", follow_up_rate / first_rate);
    report(
        "S9",
        &what("follow-ups ÷ first emails through SMTP"),
        follow_up_rate / first_rate,
        "",
        Goal::None,
    );

    // The scheduler's whole tick at the same scale (issue 32.6): `BENCH_AUTOMATIONS` active automations start their
    // run of the day, and the pass over the chains a crash could cut looks at every message (answers and follow-ups
    // written without their sending job among them). Then the tick again, with nothing new to do (the usual minute).
    let automations = env_setting("BENCH_AUTOMATIONS").unwrap_or(1_000);
    for at in 0..automations {
        let settings = AutomationSettings {
            campaign_name: format!("Automation {at}"),
            business_type: "cafe".into(),
            geographic_area: "Helsinki".into(),
            radius: 1,
            max_businesses_per_day: 5,
            email_template_id: seeded.template_id,
            max_total_emails: None,
            campaign_duration_minutes: None,
            is_active: true,
        };
        outreach_core::automations::create(&ctx, user.id, &settings)
            .await
            .unwrap();
    }
    for name in ["tick", "tick again"] {
        let started = Instant::now();
        let enqueued = outreach_scheduler::tick(&ctx).await;
        let took = started.elapsed().as_secs_f64() * 1000.0;
        println!(
            "scheduler {name:<10}: {took:>8.0} ms ({enqueued} schedules fired, {automations} automations, {} messages)",
            messages + 2 * due
        );
        report(
            "S9",
            &what(&format!("scheduler {name} with {automations} automations")),
            took,
            "ms",
            Goal::AtMost(1000.0),
        );
    }
    db.close().await;
    test_db.cleanup().await;
}
