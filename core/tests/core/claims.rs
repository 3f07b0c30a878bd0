//! Send claims under the limits, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: one user's batches claiming
//! at once never claim past the monthly limit, a message leaves sending once, and on PostgreSQL one claim never
//! waits for another one's update.

use std::time::Duration;

use outreach_core::sending::messages::{Limits, MessageStatus};
use outreach_core::testing::{TestDb, each_backend, postgres_admin_url, seed_campaign};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_users_claims_made_at_once_stay_within_the_monthly_limit() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (user_id, campaign_id, ids) =
            seed_campaign(db, "ada@example.org", 50, 200, None, "<p>Hi</p>").await;
        let limits = Limits {
            monthly_limit: 50,
            daily_cap: 1_000,
        };
        // Ten batches of twenty, all at once.
        let claims = ids.chunks(20).map(|batch| {
            let db = db.clone();
            let batch = batch.to_vec();
            async move {
                db.sending()
                    .claim_messages(user_id, None, &batch, limits, "lease", 1)
                    .await
                    .unwrap()
            }
        });
        let claims = futures::future::join_all(claims).await;
        let claimed: usize = claims.iter().map(|claim| claim.claimed.len()).sum();
        assert_eq!(claimed, 50, "{}", db.backend());
        assert_eq!(
            claims.iter().filter(|claim| claim.no_room).count(),
            claims
                .iter()
                .filter(|claim| claim.claimed.len() < 20)
                .count(),
            "every batch short of room says so, on {}",
            db.backend()
        );
        let progress = db.sending().campaign_progress(campaign_id).await.unwrap();
        assert_eq!(
            (progress.sending, progress.queued, progress.total),
            (50, 150, 200),
            "{}",
            db.backend()
        );
        test_db.cleanup().await;
    })
    .await;
}

/// PostgreSQL runs one user's claims side by side; only their counting of the room is one at a time. A claim whose
/// messages are locked by another transaction (a sent mark, a release) waits for them without keeping the user's
/// other batches from claiming theirs: they waited 71 ms a claim behind each other's updates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_waiting_for_its_messages_keeps_no_other_claim_of_the_user_waiting() {
    let Some(admin_url) = postgres_admin_url() else {
        return;
    };
    let test_db = TestDb::postgres(&admin_url).await;
    let outreach_core::Db::Postgres(pool) = &test_db.db else {
        unreachable!("a PostgreSQL address");
    };
    let db = &test_db.db;
    let (user_id, _, ids) = seed_campaign(db, "ada@example.org", 100, 2, None, "<p>Hi</p>").await;
    let limits = Limits {
        monthly_limit: 100,
        daily_cap: 100,
    };
    // Another transaction holds the first message's row.
    let mut other = pool.begin().await.unwrap();
    sqlx::query("select id from sent_emails where id = $1 for update")
        .bind(ids[0])
        .execute(&mut *other)
        .await
        .unwrap();
    let waiting = tokio::spawn({
        let db = db.clone();
        let first = ids[0];
        async move {
            db.sending()
                .claim_messages(user_id, None, &[first], limits, "lease", 1)
                .await
                .unwrap()
        }
    });
    // The first claim is waiting for that row before the second one starts (a claim that skipped it instead
    // would not be this test's case: it fails here).
    let lock_waits = "select count(*) from pg_stat_activity where datname = current_database() \
        and wait_event_type = 'Lock'";
    let first_waits = tokio::time::timeout(Duration::from_secs(10), async {
        while sqlx::query_scalar::<_, i64>(lock_waits)
            .fetch_one(pool)
            .await
            .unwrap()
            == 0
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(
        first_waits.is_ok(),
        "the first claim never waited for the locked row"
    );
    let second = tokio::time::timeout(
        Duration::from_secs(5),
        db.sending()
            .claim_messages(user_id, None, &ids[1..], limits, "lease", 1),
    )
    .await;
    other.rollback().await.unwrap();
    let first = waiting.await.unwrap();
    assert!(
        matches!(&second, Ok(Ok(claim)) if claim.claimed == ids[1..]),
        "the second claim waited for the first one's messages: {second:?}"
    );
    assert_eq!(first.claimed, ids[..1]);
    test_db.cleanup().await;
}

/// A message leaves sending once: the process that deletes its claim takes it out and gives its claim back to the
/// day counters; a second way out (a late worker, a second recovery) finds no claim, changes nothing and gives
/// nothing back. A message being sent shows as such while it has its claim, and is queued again after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_leaves_sending_once_and_its_claim_is_given_back_once() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (user_id, campaign_id, ids) =
            seed_campaign(db, "ada@example.org", 2, 3, None, "<p>Hi</p>").await;
        let limits = Limits {
            monthly_limit: 2,
            daily_cap: 100,
        };
        let store = db.sending();
        let first = store
            .claim_messages(user_id, None, &ids[..2], limits, "lease", 1)
            .await
            .unwrap();
        assert_eq!(first.claimed, ids[..2], "{}", db.backend());
        let claimed = store.load_message(ids[0]).await.unwrap().unwrap();
        assert_eq!(claimed.status, MessageStatus::Sending, "{}", db.backend());
        for _ in 0..2 {
            store.requeue_message(ids[0], "deferred").await.unwrap();
        }
        let requeued = store.load_message(ids[0]).await.unwrap().unwrap();
        assert_eq!(requeued.status, MessageStatus::Queued, "{}", db.backend());
        let progress = store.campaign_progress(campaign_id).await.unwrap();
        assert_eq!(
            (progress.queued, progress.sending),
            (2, 1),
            "{}",
            db.backend()
        );
        // One claim given back, not two: room for one more message of the two asked.
        let again = store
            .claim_messages(user_id, None, &[ids[0], ids[2]], limits, "lease", 1)
            .await
            .unwrap();
        assert_eq!(
            (again.claimed, again.no_room),
            (vec![ids[0]], true),
            "{}",
            db.backend()
        );
        test_db.cleanup().await;
    })
    .await;
}
