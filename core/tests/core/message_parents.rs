//! A message's references to its account, campaign, template and sender, on SQLite and (with `TEST_DATABASE_URL`)
//! PostgreSQL, where these four are checked once a statement instead of once a row (migration 43): a message that
//! names a parent that is gone is refused and nothing of its batch is written, deleting a parent does what its key
//! says (an account's messages go with it; a campaign's, template's or sender's stay, without the reference), and a
//! parent deleted while a message that names it is being written waits for that write, so no message is left
//! naming a parent that is gone.

use std::time::Duration;

use outreach_core::platform::db::Db;
use outreach_core::sending::messages::MessageKind;
use outreach_core::sending::outgoing::{Letter, Outgoing};
use outreach_core::testing::{
    TestDb, each_backend, loopback_smtp_sender, seed_campaign, seed_sender,
};

/// A parent id no row has.
const GONE: i64 = 1_000_000;

/// A message's (campaign, template, sender), or None when the message is gone.
async fn references(db: &Db, id: i64) -> Option<(Option<i64>, Option<i64>, Option<i64>)> {
    outreach_core::on_db!(db, pool => sqlx::query_as(
        "select campaign_id, template_id, config_id from sent_emails where id = $1"
    )
    .bind(id)
    .fetch_optional(pool)
    .await)
    .unwrap()
}

async fn message_count(db: &Db) -> i64 {
    outreach_core::on_db!(db, pool => sqlx::query_scalar("select count(*) from sent_emails")
        .fetch_one(pool)
        .await)
    .unwrap()
}

/// Ada's account with a sender and a campaign of `recipients` messages through it: (user, campaign, template,
/// sender, message ids).
async fn campaign_through_sender(
    test_db: &TestDb,
    recipients: usize,
) -> (i64, i64, i64, i64, Vec<i64>) {
    let db = &test_db.db;
    let (_, sender) = seed_sender(db, "ada@example.org", &loopback_smtp_sender(2525)).await;
    let (user, campaign, ids) = seed_campaign(
        db,
        "ada@example.org",
        100,
        recipients,
        Some(sender),
        "<p>Hi</p>",
    )
    .await;
    let template: i64 = outreach_core::on_db!(db, pool => sqlx::query_scalar(
        "select id from email_templates where user_id = $1"
    )
    .bind(user)
    .fetch_one(pool)
    .await)
    .unwrap();
    (user, campaign, template, sender, ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_naming_a_parent_that_is_gone_is_refused() {
    each_backend(|test_db| async move {
        let backend = test_db.db.backend();
        let (user, campaign, template, sender, _) = campaign_through_sender(&test_db, 1).await;
        let db = &test_db.db;
        let before = message_count(db).await;
        let outgoing = |user_id, campaign_id, config_id| Outgoing {
            user_id,
            campaign_id: Some(campaign_id),
            config_id: Some(config_id),
            pooled: false,
            kind: MessageKind::FollowUp,
        };
        let cases = [
            ("account", outgoing(GONE, campaign, sender), template),
            ("campaign", outgoing(user, GONE, sender), template),
            ("template", outgoing(user, campaign, sender), GONE),
            ("sender", outgoing(user, campaign, GONE), template),
        ];
        for (parent, outgoing, template_id) in cases {
            // Two letters: the check covers the statement, not only its first row.
            let letters: Vec<Letter> = ["one@cafe.example", "two@cafe.example"]
                .iter()
                .enumerate()
                .map(|(step, to_email)| Letter {
                    to_email,
                    template_id: Some(template_id),
                    step: step as i32 + 1,
                    ..Letter::default()
                })
                .collect();
            let error = outgoing
                .write(db, &letters, 1_800_000_000_000)
                .await
                .expect_err(parent);
            assert!(
                error
                    .as_database_error()
                    .is_some_and(|error| error.is_foreign_key_violation()),
                "{backend}: a missing {parent} is a foreign-key error: {error}"
            );
            assert_eq!(
                message_count(db).await,
                before,
                "{backend}: nothing written for a missing {parent}"
            );
        }
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_parent_does_what_its_key_says() {
    each_backend(|test_db| async move {
        let backend = test_db.db.backend();
        let (user, campaign, template, sender, ids) = campaign_through_sender(&test_db, 2).await;
        let db = &test_db.db;
        assert_eq!(
            references(db, ids[0]).await,
            Some((Some(campaign), Some(template), Some(sender)))
        );
        // Sent: a sender with messages still to go out is not deleted.
        test_db
            .execute("update sent_emails set status = 'sent', sent_at = 1800000000000")
            .await;

        assert!(
            db.campaigns()
                .delete_template(template, user)
                .await
                .unwrap()
        );
        assert_eq!(
            references(db, ids[0]).await,
            Some((Some(campaign), None, Some(sender))),
            "{backend}: the template's messages stay without it"
        );
        assert!(
            db.sending()
                .delete_email_config(user, sender, 0)
                .await
                .unwrap()
        );
        // A removed sender keeps its row, without credentials, so its threads still name their mailbox.
        assert_eq!(
            references(db, ids[0]).await,
            Some((Some(campaign), None, Some(sender))),
            "{backend}: the sender's messages still name it"
        );
        let removed = db
            .sending()
            .load_email_config(sender)
            .await
            .unwrap()
            .unwrap();
        assert!(removed.removed_at.is_some() && removed.secret.is_none() && !removed.is_active);
        assert!(
            db.sending()
                .list_email_configs(user)
                .await
                .unwrap()
                .is_empty()
        );
        assert!(
            db.campaigns()
                .delete_campaign(campaign, user)
                .await
                .unwrap()
        );
        for id in &ids {
            assert_eq!(
                references(db, *id).await,
                Some((None, None, Some(sender))),
                "{backend}: the campaign's messages stay without it"
            );
        }

        outreach_core::on_db!(db, pool => sqlx::query("delete from users where id = $1")
            .bind(user)
            .execute(pool)
            .await
            .map(|_| ()))
        .unwrap();
        assert_eq!(
            message_count(db).await,
            0,
            "{backend}: an account's messages go with it"
        );
        test_db.cleanup().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parent_deleted_while_a_message_naming_it_is_written_waits_for_the_write() {
    each_backend(|test_db| async move {
        let backend = test_db.db.backend();
        let (user, campaign, _, _, _) = campaign_through_sender(&test_db, 0).await;
        let db = test_db.db.clone();
        let mut writing = db.begin_write().await.unwrap();
        outreach_core::on_tx!(&mut writing, conn => sqlx::query(
            "insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, token) \
             values ($1, 'late@cafe.example', '', 'queued', 0, $2, 'late-token')"
        )
        .bind(user)
        .bind(campaign)
        .execute(conn)
        .await
        .map(|_| ()))
        .unwrap();
        // The delete starts while the write is still open; without the write's lock on the campaign it would end
        // first and leave the message naming a campaign that is gone.
        let deleting = tokio::spawn({
            let db = db.clone();
            async move { db.campaigns().delete_campaign(campaign, user).await }
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        writing.commit().await.unwrap();
        assert!(deleting.await.unwrap().unwrap());

        let written: Option<i64> = outreach_core::on_db!(&db, pool => sqlx::query_scalar(
            "select campaign_id from sent_emails where token = 'late-token'"
        )
        .fetch_one(pool)
        .await)
        .unwrap();
        assert_eq!(
            written, None,
            "{backend}: the message is kept, without the campaign deleted after it was written"
        );
        test_db.cleanup().await;
    })
    .await;
}
