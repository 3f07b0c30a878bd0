//! Chains of jobs cut by a crash between a step's commit and the queueing of the next (issue 29.4), on SQLite and
//! (with `TEST_DATABASE_URL`) PostgreSQL: the scheduler's pass queues each missing step once, and leaves a whole
//! chain, a paused campaign and a step queued already alone.

use std::sync::Arc;
use std::time::Duration;

use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::jobs::{
    ClassifyReply, EnrichBusiness, RunAutomation, RunSearchChunk, SendCampaignEmail,
};
use outreach_core::testing::{at_any_time, each_backend, seed_campaign};
use outreach_core::{Context, Settings, on_db};

/// The pass's counts by chain.
async fn resume(ctx: &Context) -> Vec<(&'static str, usize)> {
    outreach_scheduler::resume_interrupted_chains(ctx)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_chain_cut_between_its_steps_is_resumed_once() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let mut settings = at_any_time(Settings::default());
        // Everything written before now is old enough to be looked at.
        settings.queue.lease_seconds = 0;
        let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));
        let now = SystemClock.now_ms();

        // A campaign's messages written by a launch that died before queueing their job; a paused campaign's wait
        // for its resume; a campaign whose messages have their job.
        let (user_id, cut, cut_ids) = seed_campaign(db, "ada@example.org", 100, 3, None, "<p>Hi</p>").await;
        let (_, paused, _) = seed_campaign(db, "bob@example.org", 100, 2, None, "<p>Hi</p>").await;
        let (_, whole, whole_ids) = seed_campaign(db, "cy@example.org", 100, 2, None, "<p>Hi</p>").await;
        for (campaign, status) in [(cut, "active"), (paused, "paused"), (whole, "active")] {
            on_db!(db, pool => sqlx::query("update campaigns set status = $1 where id = $2").bind(status)
                .bind(campaign).execute(pool).await.map(|_| ())).unwrap();
        }
        let job = SendCampaignEmail { campaign_id: Some(whole), message_ids: whole_ids, at_once: false, branding: None };
        ctx.queue.enqueue(job, Some("send:whole")).await.unwrap();

        // A search whose first chunk was recorded and whose process died before queueing the second.
        let params = serde_json::json!({ "searchType": "local", "businessType": "cafe", "geographicArea": "Helsinki",
            "radius": 1, "maxResults": 60 });
        let params = serde_json::from_value(params).unwrap();
        let search = db.discovery().insert_search(user_id, &params, now).await.unwrap();
        on_db!(db, pool => sqlx::query("update searches set chunks_done = 1 where id = $1").bind(search)
            .execute(pool).await.map(|_| ())).unwrap();

        // A business waiting for its website lookup with no lookup job.
        let business: i64 = on_db!(db, pool => sqlx::query_scalar(
            "insert into businesses (user_id, name, name_address_key, website, email_status, provider, found_at, created_at)
             values ($1, 'Cafe', 'cafe|', 'https://cafe.example', 'pending', 'import', $2, $2) returning id")
            .bind(user_id).bind(now).fetch_one(pool).await).unwrap();

        // An automation run whose record was written and whose job was lost.
        let run: i64 = on_db!(db, pool => sqlx::query_scalar(
            "insert into automation_runs (user_id, automation_name, manual, status, started_at)
             values ($1, 'Daily', true, 'running', $2) returning id")
            .bind(user_id).bind(now).fetch_one(pool).await).unwrap();

        // A reply kept whose reading was never queued.
        let reply: i64 = on_db!(db, pool => sqlx::query_scalar(
            "insert into inbound_messages (user_id, message_id, kind, from_email, subject, body, source, received_at)
             values ($1, $2, 'reply', 'owner0@cafe0.example', 'Re: Hi', 'Sounds good', 'imap', $3) returning id")
            .bind(user_id).bind(cut_ids[0]).bind(now).fetch_one(pool).await).unwrap();

        tokio::time::sleep(Duration::from_millis(5)).await;
        let first = resume(&ctx).await;
        assert_eq!(
            first,
            vec![("search", 1), ("enrichment", 1), ("automation", 1), ("send", 3), ("classification", 1)],
            "{}",
            db.backend()
        );
        // Each missing step is queued, for what was cut.
        let queued = |field: &'static str| ctx.queue.unfinished_ids::<RunSearchChunk>(field);
        assert!(queued("search_id").await.unwrap().contains(&search));
        assert!(ctx.queue.unfinished_ids::<EnrichBusiness>("business_id").await.unwrap().contains(&business));
        assert!(ctx.queue.unfinished_ids::<RunAutomation>("run_id").await.unwrap().contains(&run));
        assert!(ctx.queue.unfinished_ids::<ClassifyReply>("inbound_id").await.unwrap().contains(&reply));
        let sending = ctx.queue.unfinished_ids::<SendCampaignEmail>("message_ids").await.unwrap();
        assert!(cut_ids.iter().all(|id| sending.contains(id)));
        // A second pass finds every chain whole.
        let second = resume(&ctx).await;
        assert!(second.iter().all(|(_, count)| *count == 0), "{second:?}");
        test_db.cleanup().await;
    })
    .await;
}

/// Issue 80.3: rows of the queue that cannot be read (a payload that is not JSON, or not even UTF-8) stop no pass of
/// the scheduler: messages that lost their job are queued again, and a campaign's next send is still found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_queue_rows_stop_no_resumption() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let mut settings = at_any_time(Settings::default());
        settings.queue.lease_seconds = 0;
        let ctx = Context::new(db.clone(), settings, Arc::new(SystemClock));
        let (_, cut, cut_ids) = seed_campaign(db, "ada@example.org", 100, 3, None, "<p>Hi</p>").await;
        on_db!(db, pool => sqlx::query("update campaigns set status = 'active' where id = $1").bind(cut)
            .execute(pool).await.map(|_| ())).unwrap();
        for (n, tag) in ["not-json", "not-utf8"].into_iter().enumerate() {
            let job = SendCampaignEmail { campaign_id: Some(cut), message_ids: vec![-1 - n as i64], at_once: false,
                branding: None };
            ctx.queue.enqueue(job, Some(tag)).await.unwrap();
        }
        let (not_json, not_utf8) = match db.backend() {
            "postgres" => (
                "update apalis.jobs set job = convert_to('not json', 'UTF8') where idempotency_key like '%not-json%'",
                "update apalis.jobs set job = '\\xff00fe'::bytea where idempotency_key like '%not-utf8%'",
            ),
            _ => (
                "update Jobs set job = cast('not json' as blob) where idempotency_key like '%not-json%'",
                "update Jobs set job = x'ff00fe' where idempotency_key like '%not-utf8%'",
            ),
        };
        test_db.execute(not_json).await;
        test_db.execute(not_utf8).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        let resumed = resume(&ctx).await;
        assert!(resumed.contains(&("send", 3)), "{}: {resumed:?}", db.backend());
        let sending = ctx.queue.unfinished_ids::<SendCampaignEmail>("message_ids").await.unwrap();
        assert!(cut_ids.iter().all(|id| sending.contains(id)), "{}", db.backend());
        let next = ctx.queue.next_send_of_campaign(cut, SystemClock.now_ms()).await;
        assert!(next.is_ok(), "{}: {next:?}", db.backend());
        let jobs = ctx.queue.list(None, None, 10).await;
        assert!(jobs.is_ok(), "{}: {jobs:?}", db.backend());
        for job in jobs.unwrap() {
            assert!(ctx.queue.show(&job.id).await.is_ok(), "{}", db.backend());
        }
        test_db.cleanup().await;
    })
    .await;
}
