//! The hand-over log (group commit of hand-overs), on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: each
//! hand-over is committed when its caller hears back, however many connections hand over at once, and a message the
//! server did not take is unmarked by the next record.

use outreach_core::sending::handover::{HandOver, HandOverLog};
use outreach_core::testing::{claimed_by_gone_worker, each_backend};

fn hand_over(id: i64, connection: usize, seq: i64) -> HandOver {
    HandOver::handed(
        id,
        format!("lease/{connection}"),
        seq,
        format!("<{id}@bakery.example>"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hand_overs_made_at_once_are_each_committed_when_answered() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        // Claimed under a lease that is already over, so each hand-over shows among the interrupted sends.
        let ids = claimed_by_gone_worker(db, 16).await;
        let log = HandOverLog::default();
        // Eight connections hand over two messages each, one after the other, all at the same moment; the second
        // on each connection follows a refusal of the first.
        let connections = ids.chunks(2).enumerate().map(|(connection, pair)| {
            let (log, db) = (log.clone(), db.clone());
            let (first, second) = (pair[0], pair[1]);
            async move {
                let seq = 2 * connection as i64;
                log.record(&db, vec![hand_over(first, connection, seq)])
                    .await
                    .unwrap();
                let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
                let first_seen = seen.iter().find(|message| message.id == first).unwrap();
                assert_eq!(
                    (first_seen.handed_by.clone(), first_seen.handed_seq),
                    (Some(format!("lease/{connection}")), Some(seq)),
                    "committed when answered, on {}",
                    db.backend()
                );
                log.record(
                    &db,
                    vec![
                        HandOver::not_taken(first),
                        hand_over(second, connection, seq + 1),
                    ],
                )
                .await
                .unwrap();
                let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
                let handed = |id: i64| {
                    let message = seen.iter().find(|message| message.id == id).unwrap();
                    (message.handed_by.clone(), message.handed_seq)
                };
                assert_eq!(handed(first), (None, None), "refused: unmarked");
                assert_eq!(
                    handed(second),
                    (Some(format!("lease/{connection}")), Some(seq + 1))
                );
            }
        });
        futures::future::join_all(connections).await;
        test_db.cleanup().await;
    })
    .await;
}
