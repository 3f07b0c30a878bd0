//! The plans of the scheduler's pass over chains a crash could cut, on SQLite and (with `TEST_DATABASE_URL`)
//! PostgreSQL: it runs every tick, so it finds what waits through indexes of what waits, never by reading every
//! message sent or every business found. SQLite read all messages to find none waiting: it walked the index of
//! campaigns' messages in order, to return the waiting ones campaign by campaign without sorting them; and both
//! databases read every business to find those waiting for their website lookup (the follow-up benchmark's tick over
//! a million sent messages, each to a business of its own, spent 140 and 60-100 of its 250 ms there).

use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::queries::{BUSINESS_PENDING_ENRICHMENT, OUTGOING_WAITING};
use outreach_core::testing::{each_backend, seed_campaign, seed_follow_ups};

use crate::send_plans::{Parameter, plans_as_statistics_change, reads_every_message};

/// Messages waiting to be sent (a campaign's queued ones beside 10,000 sent), before any statistics and after:
/// found through the index of messages by campaign and status, not by reading every message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_messages_waiting_to_be_sent_are_found_without_reading_every_message_sent() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        seed_follow_ups(db, "ada@example.org", 100_000, 10_000, 0, None).await;
        seed_campaign(db, "grace@example.org", 1_000, 50, None, "<p>Hi</p>").await;
        let before = SystemClock.now_ms() + 1;
        let waiting = db.sending().waiting_messages(before).await.unwrap();
        assert_eq!(waiting.len(), 50, "the queued campaign's messages wait");
        let statements = [("waiting messages", OUTGOING_WAITING.sql(db))];
        let parameters = || vec![Parameter::Number(before)];
        for (planned, plan) in
            plans_as_statistics_change(db, "sent_emails", &statements, parameters).await
        {
            assert!(!reads_every_message(&plan), "{planned}: {plan}");
        }
        test_db.cleanup().await;
    })
    .await;
}

/// Businesses waiting for their website lookup (one asked for beside 10,000 found without one), before any statistics
/// and after: found through an index of those waiting, not by reading every business.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_businesses_waiting_for_their_website_lookup_are_found_without_reading_every_business()
{
    each_backend(|test_db| async move {
        let db = &test_db.db;
        seed_follow_ups(db, "ada@example.org", 100_000, 10_000, 0, None).await;
        let pending = outreach_core::on_db!(db, pool => sqlx::query_scalar::<_, i64>(
            "update businesses set email_status = 'pending' where id = (select max(id) from businesses) returning id"
        )
        .fetch_one(pool)
        .await)
        .unwrap();
        assert_eq!(
            db.discovery().businesses_pending_enrichment().await.unwrap(),
            [pending]
        );
        let statements = [("waiting businesses", BUSINESS_PENDING_ENRICHMENT.sql(db))];
        for (planned, plan) in plans_as_statistics_change(db, "businesses", &statements, Vec::new).await {
            assert!(plan.contains("businesses_pending_enrichment"), "{planned}: {plan}");
        }
        test_db.cleanup().await;
    })
    .await;
}
