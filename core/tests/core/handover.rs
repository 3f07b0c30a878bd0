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

/// How many hand-overs are on record, current or not.
async fn hand_overs_on_record(db: &outreach_core::Db) -> i64 {
    outreach_core::on_hand_overs!(db, pool =>
        sqlx::query_scalar("select count(*) from send_handovers").fetch_one(pool).await)
    .unwrap()
}

/// A hand-over is committed while its SMTP connection waits to send, so it must not wait for the other writes of
/// the database: on SQLite, for the one writer's claims and sent marks (they live in another file).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_over_is_committed_while_another_write_holds_the_database() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let ids = claimed_by_gone_worker(db, 1).await;
        // A claim or a sent mark in the middle of its transaction.
        let mut other = db.begin_write().await.unwrap();
        outreach_core::on_tx!(&mut other, connection =>
            sqlx::query("update sent_emails set error = 'busy' where id = $1")
                .bind(ids[0]).execute(connection).await.map(drop))
        .unwrap();
        let recorded = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            db.sending().hand_over(&[hand_over(ids[0], 1, 1)]),
        )
        .await;
        other.rollback().await.unwrap();
        assert!(
            matches!(recorded, Ok(Ok(()))),
            "the hand-over waited for the other write on {}: {recorded:?}",
            db.backend()
        );
        let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
        assert_eq!(seen[0].handed_seq, Some(1), "{}", db.backend());
        test_db.cleanup().await;
    })
    .await;
}

/// Every way out of sending forgets the message's hand-over: sent, failed, uncertain, back to the queue. One left
/// on record would be read as the message's next claim's: claimed again after a deferral and then cut off by a
/// crash, it would count as handed over (and never be sent) though it never was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_leaving_sending_leaves_no_hand_over_behind() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let ids = claimed_by_gone_worker(db, 4).await;
        let records: Vec<HandOver> = ids
            .iter()
            .enumerate()
            .map(|(seq, &id)| hand_over(id, 1, seq as i64))
            .collect();
        db.sending().hand_over(&records).await.unwrap();
        assert_eq!(hand_overs_on_record(db).await, 4);
        let sent = outreach_core::sending::messages::Delivered {
            id: ids[0],
            subject: "Hi",
            html: "<p>Hi</p>",
            text: None,
            message_id: "sent@bakery.example",
            provider: outreach_core::sending::senders::Provider::Smtp,
        };
        db.sending().mark_sent_batch(&[sent], 1).await.unwrap();
        db.sending()
            .mark_unsent(
                ids[1],
                outreach_core::sending::messages::MessageStatus::Failed,
                "refused",
                None,
            )
            .await
            .unwrap();
        db.sending()
            .mark_uncertain(ids[2], "no answer", None)
            .await
            .unwrap();
        // Deferred by the server: back to the queue, then claimed again (still under the gone lease).
        db.sending()
            .requeue_message(ids[3], "deferred")
            .await
            .unwrap();
        assert_eq!(hand_overs_on_record(db).await, 0, "{}", db.backend());
        let user_id: i64 = outreach_core::on_db!(db, pool =>
            sqlx::query_scalar("select user_id from sent_emails where id = $1")
                .bind(ids[3]).fetch_one(pool).await)
        .unwrap();
        let limits = outreach_core::sending::messages::Limits {
            monthly_limit: 100,
            daily_cap: 100,
        };
        db.sending()
            .claim_messages(user_id, None, &ids[3..], limits, "gone", 0)
            .await
            .unwrap();
        let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
        assert_eq!(
            seen.iter()
                .map(|message| (message.id, message.handed_by.clone()))
                .collect::<Vec<_>>(),
            [(ids[3], None)],
            "claimed again and never handed over, on {}",
            db.backend()
        );
        test_db.cleanup().await;
    })
    .await;
}

/// What is left on record for messages no longer in sending (a crash between a message's mark and its forgetting,
/// a deleted campaign) is swept by recovery; the hand-overs of messages in sending stay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recovery_sweeps_hand_overs_of_messages_no_longer_sending() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let ids = claimed_by_gone_worker(db, 2).await;
        db.sending()
            .hand_over(&[hand_over(ids[0], 1, 1), hand_over(ids[1], 1, 1)])
            .await
            .unwrap();
        // Marked sent (its claim deleted) behind the store's back, as a crash before the forgetting leaves it.
        for statement in [
            "update sent_emails set status = 'sent', sent_at = 1 where id = $1",
            "delete from send_claims where message = $1",
        ] {
            outreach_core::on_writer!(db, pool =>
                sqlx::query(statement).bind(ids[0]).execute(pool).await.map(drop))
            .unwrap();
        }
        assert_eq!(db.sending().sweep_hand_overs().await.unwrap(), 1);
        let seen = db.sending().interrupted_sends(0, i64::MAX).await.unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(
            (seen[0].id, seen[0].handed_seq),
            (ids[1], Some(1)),
            "{}",
            db.backend()
        );
        assert_eq!(hand_overs_on_record(db).await, 1, "{}", db.backend());
        test_db.cleanup().await;
    })
    .await;
}
