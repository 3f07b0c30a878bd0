//! The tracking-event batch write, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: a batch is stored whole or
//! not at all (the recorder tries a failed batch again, so half a write would store its events twice), and a
//! message's first open and click are the earliest a person made, whatever order the batches are written in, and
//! its events are listed in the order they happened; and the recorder in front of it writes every event handed to
//! it, while it runs and when it stops.

use outreach_core::platform::clock::DAY_MS;
use outreach_core::platform::db::Db;
use outreach_core::platform::queries::{EVENT_OF_TOKEN, FEEDBACK_EVENTS_OF_TOKENS};
use outreach_core::testing::{TestDb, each_backend, seed_campaign};
use outreach_core::tracking::events::{EventKind, TrackingEvent};
use outreach_core::tracking::recorder::Recorder;

use crate::send_plans::{Parameter, plan_under};

const PERSON: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15";
const PROXY: &str = "Mozilla/5.0 (via ggpht.com GoogleImageProxy)";
const SENT_AT: i64 = 1_800_000_000_000;

/// One message of a new campaign, sent at `SENT_AT`: (its id, its tracking token).
async fn sent_message(test_db: &TestDb) -> (i64, String) {
    let (_, _, ids) =
        seed_campaign(&test_db.db, "ada@example.org", 100, 1, None, "<p>Hi</p>").await;
    test_db
        .execute("update sent_emails set status = 'sent', sent_at = 1800000000000")
        .await;
    let token = outreach_core::on_db!(&test_db.db, pool => sqlx::query_scalar(
        "select token from sent_emails where id = $1"
    )
    .bind(ids[0])
    .fetch_one(pool)
    .await)
    .unwrap();
    (ids[0], token)
}

fn event(token: &str, kind: EventKind, agent: &str, after_sending: i64) -> TrackingEvent {
    TrackingEvent::new(
        token.to_string(),
        kind,
        (kind == EventKind::Click).then(|| "https://bakery.example/menu".to_string()),
        Some(agent.to_string()),
        SENT_AT + after_sending,
    )
}

/// The message's (opened_at, clicked_at, status).
async fn opened(db: &Db, id: i64) -> (Option<i64>, Option<i64>, String) {
    outreach_core::on_db!(db, pool => sqlx::query_as(
        "select opened_at, clicked_at, status from sent_emails where id = $1"
    )
    .bind(id)
    .fetch_one(pool)
    .await)
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_events_is_stored_whole_or_not_at_all() {
    each_backend(|test_db| async move {
        let (id, token) = sent_message(&test_db).await;
        let batch = vec![
            event(&token, EventKind::Open, PERSON, 60_000),
            event(&token, EventKind::Click, PERSON, 61_000),
        ];
        // The message's part of the write fails (a broken table): none of the batch's events stay.
        match &test_db.db {
            Db::Postgres(_) => {
                test_db
                    .execute(
                        "create function refuse() returns trigger language plpgsql as \
                         $$ begin raise exception 'refused'; end $$",
                    )
                    .await;
                test_db
                    .execute(
                        "create trigger refuse before update on sent_emails \
                         for each row execute function refuse()",
                    )
                    .await;
            }
            Db::Sqlite { .. } => {
                test_db
                    .execute(
                        "create trigger refuse before update on sent_emails \
                         begin select raise(abort, 'refused'); end",
                    )
                    .await;
            }
        }
        let tracking = test_db.db.tracking();
        assert!(tracking.insert_events(&batch).await.is_err());
        assert_eq!(
            tracking.events_of(&token).await.unwrap().len(),
            0,
            "a failed batch leaves no events, on {}",
            test_db.db.backend()
        );
        test_db
            .execute(match &test_db.db {
                Db::Postgres(_) => "drop trigger refuse on sent_emails",
                Db::Sqlite { .. } => "drop trigger refuse",
            })
            .await;
        // What the recorder does next: the same batch again, stored once.
        tracking.insert_events(&batch).await.unwrap();
        assert_eq!(tracking.events_of(&token).await.unwrap().len(), 2);
        assert_eq!(
            opened(&test_db.db, id).await,
            (
                Some(SENT_AT + 60_000),
                Some(SENT_AT + 61_000),
                "opened".into()
            )
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_open_and_click_are_the_earliest_a_person_made() {
    each_backend(|test_db| async move {
        let (id, token) = sent_message(&test_db).await;
        let tracking = test_db.db.tracking();
        // Machines only: an open seconds after sending, and an image proxy's.
        tracking
            .insert_events(&[
                event(&token, EventKind::Open, PERSON, 5_000),
                event(&token, EventKind::Open, PROXY, 60_000),
            ])
            .await
            .unwrap();
        assert_eq!(opened(&test_db.db, id).await, (None, None, "sent".into()));
        tracking
            .insert_events(&[event(&token, EventKind::Open, PERSON, 200_000)])
            .await
            .unwrap();
        assert_eq!(
            opened(&test_db.db, id).await,
            (Some(SENT_AT + 200_000), None, "opened".into())
        );
        // A batch written late, with an earlier open and a click.
        tracking
            .insert_events(&[
                event(&token, EventKind::Click, PERSON, 150_000),
                event(&token, EventKind::Open, PERSON, 100_000),
            ])
            .await
            .unwrap();
        assert_eq!(
            opened(&test_db.db, id).await,
            (
                Some(SENT_AT + 100_000),
                Some(SENT_AT + 150_000),
                "opened".into()
            ),
            "on {}",
            test_db.db.backend()
        );
        // An earlier click (a click is an open too) and later events move nothing but the click.
        tracking
            .insert_events(&[
                event(&token, EventKind::Click, PERSON, 120_000),
                event(&token, EventKind::Open, PERSON, 300_000),
            ])
            .await
            .unwrap();
        assert_eq!(
            opened(&test_db.db, id).await,
            (
                Some(SENT_AT + 100_000),
                Some(SENT_AT + 120_000),
                "opened".into()
            )
        );
        // Listed by when they happened, not in the order their batches were written.
        let stored: Vec<i64> = tracking
            .events_of(&token)
            .await
            .unwrap()
            .iter()
            .map(|e| e.occurred_at)
            .collect();
        let in_time_order = [5_000, 60_000, 100_000, 120_000, 150_000, 200_000, 300_000]
            .map(|after| SENT_AT + after);
        assert_eq!(stored, in_time_order, "on {}", test_db.db.backend());
        let user_id: i64 = outreach_core::on_db!(&test_db.db, pool => sqlx::query_scalar(
            "select user_id from sent_emails where id = $1"
        )
        .bind(id)
        .fetch_one(pool)
        .await)
        .unwrap();
        let shown = tracking.sent_email(id, user_id).await.unwrap().unwrap();
        let shown: Vec<i64> = shown.events.iter().map(|e| e.occurred_at.0).collect();
        assert_eq!(shown, in_time_order, "the message as its page shows it");
        test_db.cleanup().await;
    })
    .await;
}

/// PostgreSQL: every batch of a campaign's day counts in the same daily row, so a batch takes that row's lock only
/// at its end and holds it only to its commit: while another batch of the day holds it, a batch has already moved
/// its own messages and waits for nothing else. (PostgreSQL fires a table's triggers in name order; the tracking
/// benchmark's four writers waited on the row for most of each batch when the counters came first.) SQLite has one
/// writer, which a batch waits for as a whole: nothing of this applies there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_waits_for_the_days_counters_only_at_its_end() {
    each_backend(|test_db| async move {
        let Db::Postgres(pool) = &test_db.db else {
            return test_db.cleanup().await;
        };
        let (_, _, ids) =
            seed_campaign(&test_db.db, "ada@example.org", 100, 2, None, "<p>Hi</p>").await;
        test_db
            .execute("update sent_emails set status = 'sent', sent_at = 1800000000000")
            .await;
        let token: String = sqlx::query_scalar("select token from sent_emails where id = $1")
            .bind(ids[1])
            .fetch_one(pool)
            .await
            .unwrap();
        // Another batch of the day has counted and not committed yet.
        let mut other = pool.begin().await.unwrap();
        let locked: Vec<i64> =
            sqlx::query_scalar("select day from campaign_daily_stats where day = $1 for update")
                .bind(SENT_AT / DAY_MS)
                .fetch_all(&mut *other)
                .await
                .unwrap();
        assert_eq!(locked.len(), 1, "the day's row of the sending");
        let db = test_db.db.clone();
        let batch = tokio::spawn(async move {
            db.tracking()
                .insert_events(&[event(&token, EventKind::Open, PERSON, 60_000)])
                .await
        });
        let waiting = "select count(*) from pg_stat_activity \
                       where datname = current_database() and wait_event_type = 'Lock'";
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while sqlx::query_scalar::<_, i64>(waiting)
            .fetch_one(pool)
            .await
            .unwrap()
            == 0
        {
            assert!(
                !batch.is_finished(),
                "the batch counts in the day's row another transaction holds: it waits for it"
            );
            assert!(
                std::time::Instant::now() < deadline,
                "the batch neither waited nor finished"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let free: Vec<i64> =
            sqlx::query_scalar("select id from sent_emails where id = $1 for update skip locked")
                .bind(ids[1])
                .fetch_all(pool)
                .await
                .unwrap();
        assert!(
            free.is_empty(),
            "the waiting batch has moved its message's first open before it waits for the counters"
        );
        other.commit().await.unwrap();
        batch.await.unwrap().unwrap();
        assert_eq!(
            opened(&test_db.db, ids[1]).await,
            (Some(SENT_AT + 60_000), None, "opened".into())
        );
        let counted: (i64, i64) =
            sqlx::query_as("select opened, human_opens from campaign_daily_stats where day = $1")
                .bind(SENT_AT / DAY_MS)
                .fetch_one(pool)
                .await
                .unwrap();
        assert_eq!(counted, (1, 1));
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_recorder_writes_every_event_while_it_runs_and_the_rest_when_it_stops() {
    each_backend(|test_db| async move {
        let (id, token) = sent_message(&test_db).await;
        let recorder = Recorder::start(test_db.db.clone());
        // More than two writes' worth (a write takes up to 20,000), handed over by several endpoints at once.
        let senders: Vec<_> = (0..5)
            .map(|sender| {
                let (recorder, token) = (recorder.clone(), token.clone());
                tokio::spawn(async move {
                    for n in 0..10_000 {
                        let at = 60_000 + sender * 10_000 + n;
                        recorder
                            .record(event(&token, EventKind::Open, PERSON, at))
                            .await;
                    }
                })
            })
            .collect();
        for sender in senders {
            sender.await.unwrap();
        }
        // One more, alone: it is written while the server runs, without waiting for a full batch or a stop.
        recorder
            .record(event(&token, EventKind::Click, PERSON, 59_000))
            .await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while test_db.db.tracking().events_of(&token).await.unwrap().len() < 50_001 {
            assert!(
                std::time::Instant::now() < deadline,
                "events handed to a running recorder were not written"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(
            opened(&test_db.db, id).await,
            (
                Some(SENT_AT + 59_000),
                Some(SENT_AT + 59_000),
                "opened".into()
            )
        );
        // Events handed over just before the server stops are written by the stop.
        for n in 0..10 {
            recorder
                .record(event(&token, EventKind::Open, PROXY, 70_000 + n))
                .await;
        }
        recorder.finish().await;
        let events = test_db.db.tracking().events_of(&token).await.unwrap();
        assert_eq!(events.len(), 50_011);
        test_db.cleanup().await;
    })
    .await;
}

/// An event names its message by id as well as by token, and the events' one index is of those ids: an index of
/// tokens (44 bytes of text each, at a place the random token picks) took about a third of an event's insert
/// (docs/benchmarks.md, Tracking). An event whose token names no message (deleted since) is kept, with no id; the
/// message's events are read through the index of ids.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_name_their_message_by_id_and_are_indexed_by_it() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (id, token) = sent_message(&test_db).await;
        let batch = [
            event(&token, EventKind::Open, PERSON, 60_000),
            event("0deleted", EventKind::Open, PERSON, 60_000),
            event(&token, EventKind::Click, PERSON, 61_000),
        ];
        db.tracking().insert_events(&batch).await.unwrap();
        let stored: Vec<(String, Option<i64>)> = outreach_core::on_db!(db, pool => sqlx::query_as(
            "select token, message from email_events order by id"
        )
        .fetch_all(pool)
        .await)
        .unwrap();
        assert_eq!(
            stored,
            [
                (token.clone(), Some(id)),
                ("0deleted".into(), None),
                (token.clone(), Some(id))
            ]
        );
        assert_eq!(db.tracking().events_of(&token).await.unwrap().len(), 2);
        // A message's events and a page of messages' events, read through the index of ids (PostgreSQL would read
        // a table this small whole: with that cost made prohibitive it takes the best index it can use).
        let page = serde_json::to_string(&[&token]).unwrap();
        for (name, sql, tokens) in [
            ("a message's events", EVENT_OF_TOKEN.sql(db), token.clone()),
            ("a page's events", FEEDBACK_EVENTS_OF_TOKENS.sql(db), page),
        ] {
            let plan = plan_under(
                db,
                &["enable_seqscan = off"],
                sql,
                vec![Parameter::Text(tokens)],
            )
            .await;
            assert!(
                plan.contains("email_events_message"),
                "{name} on {}: {plan}",
                db.backend()
            );
        }
        // PostgreSQL lists its primary key's index too (of `id`); SQLite's is the table itself.
        let indexes = crate::schema::indexes_of(db, "email_events").await;
        assert!(
            indexes.iter().any(|index| index.contains("message"))
                && !indexes.iter().any(|index| index.contains("token")),
            "the events' indexes on {}: {indexes:?}",
            db.backend()
        );
        test_db.cleanup().await;
    })
    .await;
}
