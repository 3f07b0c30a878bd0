//! Unsubscribes written together, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: a batch adds each address
//! once and keeps its first request, and the writer in front of it answers every request only once its address is
//! stored, or says it was not recorded when the write failed.

use std::collections::HashSet;

use outreach_core::testing::{TestDb, each_backend};
use outreach_core::tracking::unsubscriber::{Unrecorded, Unsubscriber};

const AT: i64 = 1_800_000_000_000;

#[tokio::test]
async fn a_batch_of_unsubscribes_adds_each_address_once_and_keeps_its_first_request() {
    each_backend(|test_db: TestDb| async move {
        let sending = test_db.db.sending();
        assert!(
            sending
                .insert_unsubscribe("old@example.org", "form", AT)
                .await
                .unwrap()
        );
        let added = sending
            .insert_unsubscribes(&[
                ("new@example.org", "one_click", AT + 1),
                ("old@example.org", "one_click", AT + 2),
                ("new@example.org", "link", AT + 3),
                ("other@example.net", "link", AT + 4),
            ])
            .await
            .unwrap();
        let backend = test_db.db.backend();
        assert_eq!(
            added,
            HashSet::from([
                "new@example.org".to_string(),
                "other@example.net".to_string()
            ]),
            "{backend}"
        );
        for (email, source, at) in [
            ("old@example.org", "form", AT),
            ("new@example.org", "one_click", AT + 1),
            ("other@example.net", "link", AT + 4),
        ] {
            let found = sending.find_unsubscribe(email).await.unwrap().unwrap();
            assert_eq!(
                (found.source.as_str(), found.created_at.0),
                (source, at),
                "{backend}: {email}"
            );
        }
        assert!(sending.insert_unsubscribes(&[]).await.unwrap().is_empty());
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_unsubscriber_answers_each_request_once_its_address_is_stored() {
    each_backend(|test_db: TestDb| async move {
        let unsubscriber = Unsubscriber::start(test_db.db.clone());
        // Many at once, each address asked for twice: the writer takes them in batches.
        const ADDRESSES: usize = 300;
        let mut requests = tokio::task::JoinSet::new();
        for index in 0..ADDRESSES * 2 {
            let (unsubscriber, db) = (unsubscriber.clone(), test_db.db.clone());
            requests.spawn(async move {
                let email = format!("reader{}@example.org", index % ADDRESSES);
                let added = unsubscriber
                    .unsubscribe(email.clone(), "one_click", AT + index as i64)
                    .await
                    .unwrap();
                // Answered only once stored.
                let stored = db.sending().find_unsubscribe(&email).await.unwrap();
                assert!(stored.is_some(), "{email}");
                (email, added)
            });
        }
        let mut added = Vec::new();
        while let Some(answer) = requests.join_next().await {
            let (email, new) = answer.unwrap();
            if new {
                added.push(email);
            }
        }
        let distinct: HashSet<_> = added.iter().cloned().collect();
        assert_eq!(
            (added.len(), distinct.len()),
            (ADDRESSES, ADDRESSES),
            "{}: each address added by one request",
            test_db.db.backend()
        );
        assert_eq!(
            unsubscriber
                .unsubscribe("reader0@example.org".into(), "link", AT)
                .await,
            Ok(false)
        );

        // A write the database refuses suppresses nothing, and each request waiting on it hears so.
        test_db.execute("drop table unsubscribes").await;
        assert_eq!(
            unsubscriber
                .unsubscribe("late@example.org".into(), "one_click", AT)
                .await,
            Err(Unrecorded)
        );
        test_db.cleanup().await;
    })
    .await;
}
