//! The plans of the send path's and the tracking writer's batch statements, on SQLite and (with `TEST_DATABASE_URL`)
//! PostgreSQL: none reads the queue, every sent message or every claim to find its messages, whatever the statistics
//! say. A statement that joins a batch's ids with a status let PostgreSQL read every message in that status through an
//! index that holds it, when the statistics say there are few: a claim read all 20,000 queued messages to claim 200
//! (docs/benchmarks.md, Sending), so each claim grew with every user's queue, and the statistics are stale just when a
//! campaign has queued its messages. The sent mark finds each message for its row of the batch: looked up by primary
//! key with the ids as a filter, its join with the batch's bodies became a nested loop over both (40,000 rows compared
//! for 200). A batch of tracking events finds its messages by token: planned while `sent_emails` was
//! small, PostgreSQL kept reading all of it for each batch once it held 200,000 messages (the tracking benchmark's
//! pixel over many messages). PostgreSQL's triggers keep the plans of their first run on a connection, which no plan of
//! a statement shows: a batch of events and a claim with its sent mark are written on a connection that ran its first
//! ones while the tables were small, and the server counts the rows they read (the daily counters' trigger read every
//! message). The index of sent mail only (users' send times) holds no queued message, and every statement that reads it
//! still can; no index holds Message-IDs (a reply's message is found by the token in its Message-ID). On SQLite, no
//! check or row trigger of a message's or an event's write sets up a temporary table, which it would do for every row.
//! A send batch's recipients are looked up by primary key, not among every business of their owner.

use outreach_core::Db;
use outreach_core::on_db;
use outreach_core::platform::queries::{
    BUSINESS_FIND_OWNED_MANY, BUSINESS_RECIPIENTS, EVENT_INSERT_BATCH, FEEDBACK_FIND_BY_MESSAGE_ID,
    FEEDBACK_SENT_LIST, FOLLOW_UP_SENT, OUTGOING_CLAIM_BATCH, OUTGOING_HAND, OUTGOING_LOAD_BATCH,
    OUTGOING_RELEASE_BATCH, OUTGOING_SENT_BATCH, RATES_OWN_RESULTS, RESPONSE_TOTALS,
    SENT_EMAILS_COUNT_SINCE,
};
use outreach_core::sending::handover::HandOver;
use outreach_core::sending::messages::{Delivered, Limits};
use outreach_core::sending::senders::Provider;
use outreach_core::testing::{TestDb, each_backend, seed_campaign, seed_follow_ups};

use crate::schema::{index_size, indexes_of};
use sqlx::Row;

/// A statement's parameter, bound as its type (PostgreSQL infers a parameter's type from what is bound).
pub(crate) enum Parameter {
    Text(String),
    Number(i64),
    Numbers(Vec<i64>),
    Texts(Vec<String>),
    Flags(Vec<bool>),
}

/// The plan of a statement, with parameters, as a prepared statement runs it once its plan is kept (for any
/// parameters).
async fn plan(db: &Db, sql: &str, parameters: Vec<Parameter>) -> String {
    plan_under(
        db,
        &["plan_cache_mode = force_generic_plan"],
        sql,
        parameters,
    )
    .await
}

/// The plan of a statement under PostgreSQL settings of the connection (`name = value`, reset after). SQLite's is
/// read on the hand-over file's connection, which sees both files.
pub(crate) async fn plan_under(
    db: &Db,
    settings: &[&str],
    sql: &str,
    parameters: Vec<Parameter>,
) -> String {
    let lines: Vec<String> = match db {
        Db::Postgres(pool) => {
            let mut connection = pool.acquire().await.unwrap();
            for setting in settings {
                sqlx::query(sqlx::AssertSqlSafe(format!("set {setting}")))
                    .execute(&mut *connection)
                    .await
                    .unwrap();
            }
            let lines = bound(&format!("explain {sql}"), parameters)
                .fetch_all(&mut *connection)
                .await
                .unwrap()
                .iter()
                .map(|line| line.get(0))
                .collect();
            sqlx::query("reset all")
                .execute(&mut *connection)
                .await
                .unwrap();
            lines
        }
        Db::Sqlite { hand_overs, .. } => {
            let explain = format!("explain query plan {sql}");
            let mut query =
                sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(explain));
            for parameter in parameters {
                query = match parameter {
                    Parameter::Text(text) => query.bind(text),
                    Parameter::Number(number) => query.bind(number),
                    Parameter::Numbers(_) | Parameter::Texts(_) | Parameter::Flags(_) => {
                        unreachable!("SQLite's batches are JSON documents")
                    }
                };
            }
            let steps = query.fetch_all(hand_overs).await.unwrap();
            steps.into_iter().map(|step| step.3).collect()
        }
    };
    lines.join("\n")
}

/// Statements' plans before any statistics of `table` and after (PostgreSQL's `analyze`; SQLite keeps none here),
/// each under PostgreSQL's generic and custom plans: how each was planned, and its plan.
pub(crate) async fn plans_as_statistics_change(
    db: &Db,
    table: &str,
    statements: &[(&str, &str)],
    parameters: impl Fn() -> Vec<Parameter>,
) -> Vec<(String, String)> {
    let mut plans = Vec::new();
    for statistics in ["none", "taken"] {
        if statistics == "taken"
            && let Db::Postgres(pool) = db
        {
            sqlx::query(sqlx::AssertSqlSafe(format!("analyze {table}")))
                .execute(pool)
                .await
                .unwrap();
        }
        for cache in ["force_generic_plan", "force_custom_plan"] {
            let setting = format!("plan_cache_mode = {cache}");
            for (name, sql) in statements {
                let plan = plan_under(db, &[&setting], sql, parameters()).await;
                let planned = format!(
                    "{name} with statistics {statistics}, {cache} on {}",
                    db.backend()
                );
                plans.push((planned, plan));
            }
        }
    }
    plans
}

/// A PostgreSQL statement with its parameters bound.
fn bound(
    sql: &str,
    parameters: Vec<Parameter>,
) -> sqlx::query::Query<'static, sqlx::Postgres, sqlx::postgres::PgArguments> {
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()));
    for parameter in parameters {
        query = match parameter {
            Parameter::Text(text) => query.bind(text),
            Parameter::Number(number) => query.bind(number),
            Parameter::Numbers(numbers) => query.bind(numbers),
            Parameter::Texts(texts) => query.bind(texts),
            Parameter::Flags(flags) => query.bind(flags),
        };
    }
    query
}

/// What statements run together read of the database's tables, triggers included: the rows sequential scans read
/// and those index scans fetched, as the server counts them for its backend (the counts of the last second's
/// transactions are pending there too, so the statements' are the difference). Rolled back.
async fn rows_read(
    connection: &mut sqlx::PgConnection,
    statements: Vec<(&str, Vec<Parameter>)>,
) -> i64 {
    use sqlx::Connection;
    const READ: &str =
        "select sum(seq_tup_read + idx_tup_fetch)::bigint from pg_stat_xact_user_tables";
    let mut transaction = connection.begin().await.unwrap();
    let before: i64 = sqlx::query_scalar(READ)
        .fetch_one(&mut *transaction)
        .await
        .unwrap();
    for (sql, parameters) in statements {
        bound(sql, parameters)
            .execute(&mut *transaction)
            .await
            .unwrap();
    }
    let after: i64 = sqlx::query_scalar(READ)
        .fetch_one(&mut *transaction)
        .await
        .unwrap();
    transaction.rollback().await.unwrap();
    after - before
}

/// The plans of the load, the claim, the hand-over, the sent mark and the release of a batch, under PostgreSQL's plan
/// cache mode `cache` (a prepared statement's first runs are planned for their values, the later ones may be
/// generic).
async fn batch_plans(
    db: &Db,
    queued: &[i64],
    sending: &[i64],
    cache: &str,
) -> Vec<(&'static str, String)> {
    let cache = format!("plan_cache_mode = {cache}");
    let cache = cache.as_str();
    let plan = |sql: &'static str, parameters| async move {
        plan_under(db, &[cache], sql, parameters).await
    };
    let json = |ids: &[i64]| serde_json::to_string(ids).unwrap();
    let window: Vec<HandOver> = sending
        .iter()
        .map(|&id| HandOver::handed(id, "lease/1".into(), 1, format!("<{id}@bakery.example>")))
        .collect();
    let hand = vec![Parameter::Text(serde_json::to_string(&window).unwrap())];
    let release = vec![
        Parameter::Text(json(sending)),
        Parameter::Text("why".into()),
        Parameter::Text("why".into()),
    ];
    let load = vec![Parameter::Text(json(queued))];
    vec![
        ("load", plan(OUTGOING_LOAD_BATCH.sql(db), load).await),
        (
            "claim",
            plan(OUTGOING_CLAIM_BATCH.sql(db), claim(queued)).await,
        ),
        ("hand-over", plan(OUTGOING_HAND.sql(db), hand).await),
        (
            "sent mark",
            plan(OUTGOING_SENT_BATCH.sql(db), sent_mark(db, sending)).await,
        ),
        (
            "release",
            plan(OUTGOING_RELEASE_BATCH.sql(db), release).await,
        ),
    ]
}

/// The claim's parameters for `ids` (claimed at 1 under the lease `lease`).
fn claim(ids: &[i64]) -> Vec<Parameter> {
    vec![
        Parameter::Text(serde_json::to_string(ids).unwrap()),
        Parameter::Number(1),
        Parameter::Text("lease".into()),
    ]
}

/// The sent mark's parameters for `ids` (sent at 1).
fn sent_mark(db: &Db, ids: &[i64]) -> Vec<Parameter> {
    let texts = |text: &str| vec![text.to_owned(); ids.len()];
    match db {
        Db::Postgres(_) => vec![
            Parameter::Numbers(ids.to_vec()),
            Parameter::Texts(texts("Fresh bread")),
            Parameter::Texts(texts("<p>Hi</p>")),
            Parameter::Texts(texts("Hi")),
            Parameter::Texts(texts("<1@bakery.example>")),
            Parameter::Texts(texts("smtp")),
            Parameter::Number(1),
        ],
        Db::Sqlite { .. } => {
            let rows: Vec<serde_json::Value> = ids
                .iter()
                .map(|&id| {
                    serde_json::json!({"id": id, "subject": "Fresh bread", "html": "<p>Hi</p>", "text": "Hi",
                        "messageId": "<1@bakery.example>", "provider": "smtp"})
                })
                .collect();
            vec![
                Parameter::Text(serde_json::to_string(&rows).unwrap()),
                Parameter::Number(1),
            ]
        }
    }
}

/// A claim and a sent mark on PostgreSQL, on a connection that ran its first ones while the tables were small (a
/// connection keeps its triggers' plans from their first run), then with 10,000 more messages sent before any
/// statistics and after: with their triggers (the contacts, the campaigns' daily counters, the follow-ups due) they
/// read only their own messages' rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_and_a_sent_mark_read_only_their_messages_whatever_their_triggers_planned() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let Db::Postgres(pool) = db else {
            // SQLite plans a trigger with the statement that fires it, and keeps no plan of its own.
            return test_db.cleanup().await;
        };
        let (_, _, ids) =
            seed_campaign(db, "ada@example.org", 100_000, 50, None, "<p>Hi</p>").await;
        let claim_and_mark = |batch: &[i64]| {
            vec![
                (OUTGOING_CLAIM_BATCH.sql(db), claim(batch)),
                (OUTGOING_SENT_BATCH.sql(db), sent_mark(db, batch)),
            ]
        };
        let mut writer = pool.acquire().await.unwrap();
        for (sql, parameters) in claim_and_mark(&ids[..25]) {
            bound(sql, parameters).execute(&mut *writer).await.unwrap();
        }
        seed_follow_ups(db, "bo@example.org", 100_000, 10_000, 0, None).await;
        for statistics in ["none", "taken"] {
            if statistics == "taken" {
                sqlx::query("analyze").execute(pool).await.unwrap();
            }
            let read = rows_read(&mut writer, claim_and_mark(&ids[25..])).await;
            assert!(
                read < 1_000,
                "a claim and a sent mark of 25 messages with statistics {statistics} read {read} rows"
            );
        }
        drop(writer);
        test_db.cleanup().await;
    })
    .await;
}

/// With 10,000 messages queued and a batch of them claimed (on a table much smaller, reading it whole can cost no more
/// than the lookups): before any statistics (a campaign's messages just queued, as in the sending benchmark), and
/// after they are taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batchs_statements_never_read_the_queue_to_find_its_messages_whatever_the_statistics() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (user_id, _, ids) =
            seed_campaign(db, "ada@example.org", 10_000, 10_000, None, "<p>Hi</p>").await;
        let limits = Limits {
            monthly_limit: 10_000,
            daily_cap: 10_000,
        };
        db.sending()
            .claim_messages(user_id, None, &ids[5_000..5_200], limits, "gone", 0)
            .await
            .unwrap();
        // A batch as launches make them (`SendCampaignEmail::BATCH`): at that size a seq scan of 10,000 rows looked
        // cheaper to the planner than 200 lookups by primary key.
        let (queued, sending) = (&ids[..200], &ids[5_000..5_200]);
        for statistics in ["none", "taken"] {
            if statistics == "taken"
                && let Db::Postgres(pool) = db
            {
                sqlx::query("analyze sent_emails")
                    .execute(pool)
                    .await
                    .unwrap();
            }
            for cache in ["force_generic_plan", "force_custom_plan"] {
                for (name, plan) in batch_plans(db, queued, sending, cache).await {
                    let reads_the_queue = plan.contains("sent_emails_campaign_status")
                        || plan.contains("SCAN sent_emails")
                        || plan.contains("Seq Scan on sent_emails");
                    // A join that compares rows without an index reads the batch again for each message.
                    let rereads_the_batch = name == "sent mark" && plan.contains("Join Filter");
                    assert!(
                        !(reads_the_queue || reads_every_claim(&plan) || rereads_the_batch),
                        "{name} with statistics {statistics}, {cache} on {}: {plan}",
                        db.backend()
                    );
                }
            }
        }
        test_db.cleanup().await;
    })
    .await;
}

/// A send batch's recipients (the businesses it personalises its messages with) and a launch's, with 10,000
/// businesses of their owner, before any statistics and after: each business is looked up by its primary key. With
/// the owner's id as an index's condition too, SQLite read every business of the owner to keep a batch's 200, and the
/// sending benchmark over a million earlier messages (one business each) spent most of its time there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batchs_recipients_are_found_by_key_not_among_all_their_owners_businesses() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let seeded = seed_follow_ups(db, "ada@example.org", 100_000, 10_000, 0, None).await;
        let ids = serde_json::to_string(&(1..=200).collect::<Vec<i64>>()).unwrap();
        let statements = [
            ("recipients", BUSINESS_RECIPIENTS.sql(db)),
            ("launch's businesses", BUSINESS_FIND_OWNED_MANY.sql(db)),
        ];
        let parameters = || {
            vec![
                Parameter::Text(ids.clone()),
                Parameter::Number(seeded.user_id),
            ]
        };
        for (planned, plan) in
            plans_as_statistics_change(db, "businesses", &statements, parameters).await
        {
            let by_key =
                plan.contains("USING INTEGER PRIMARY KEY") || plan.contains("businesses_pkey");
            assert!(
                by_key && !plan.contains("businesses_user"),
                "{planned}: {plan}"
            );
        }
        test_db.cleanup().await;
    })
    .await;
}

/// Whether a plan reads `send_claims` whole (SQLite's `SCAN`, PostgreSQL's sequential scan). Claims churn: between
/// two vacuums their table holds a dead row for every message sent since, and a batch that reads them all to find
/// its own reads more with every message sent.
fn reads_every_claim(plan: &str) -> bool {
    plan.lines().any(|line| {
        let line = line.trim();
        line == "SCAN c"
            || line.starts_with("SCAN send_claims")
            || line.contains("Seq Scan on send_claims")
    })
}

/// Whether a plan reads `sent_emails` whole (SQLite's `SCAN`, PostgreSQL's sequential or bitmap heap scan).
pub(crate) fn reads_every_message(plan: &str) -> bool {
    [
        "SCAN sent_emails",
        "SCAN m",
        "Seq Scan on sent_emails",
        "Bitmap Heap Scan on sent_emails",
    ]
    .iter()
    .any(|scan| plan.contains(scan))
}

/// A batch of tracking events, planned while no message is sent yet (a connection keeps its plan as the table grows:
/// the insert's prepared statement once its plan is kept, a trigger's statements from their first run), then with
/// 10,000 sent messages before any statistics and after: the insert flags opens within seconds of sending by each
/// event's message, and on PostgreSQL its triggers move the first opens of the batch's messages and count the day's
/// opens and clicks of their campaigns. The triggers' plans are not the statements' alone (they run over the batch's
/// rows, which no stand-in table plans like), so on PostgreSQL a batch is written, on the connection that planned
/// them, and the server counts what it read of the database's tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_events_finds_its_messages_by_token_whatever_the_statistics() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let insert = |tokens: &[String]| match db {
            Db::Postgres(_) => vec![
                Parameter::Texts(tokens.to_vec()),
                Parameter::Texts(vec!["open".into(); tokens.len()]),
                Parameter::Texts(vec![String::new(); tokens.len()]),
                Parameter::Texts(vec!["Thunderbird".into(); tokens.len()]),
                Parameter::Numbers(vec![1; tokens.len()]),
                Parameter::Flags(vec![false; tokens.len()]),
            ],
            Db::Sqlite { .. } => {
                let events: Vec<_> = tokens
                    .iter()
                    .map(|token| serde_json::json!([token, "open", null, "Thunderbird", 1, false]))
                    .collect();
                vec![Parameter::Text(serde_json::to_string(&events).unwrap())]
            }
        };
        let insert_sql = EVENT_INSERT_BATCH.sql(db).to_string();
        // The connection whose plans are kept from the first batches.
        let mut writer = match db {
            Db::Postgres(pool) => Some(pool.acquire().await.unwrap()),
            Db::Sqlite { .. } => None,
        };
        let mut tokens = vec!["0123456789abcdef".to_string(); 25];
        for statistics in ["no messages", "none", "taken"] {
            if statistics == "none" {
                seed_follow_ups(db, "ada@example.org", 100_000, 10_000, 0, None).await;
                tokens = sent_tokens(db).await;
            }
            if let Db::Postgres(pool) = db
                && statistics == "taken"
            {
                sqlx::query("analyze sent_emails")
                    .execute(pool)
                    .await
                    .unwrap();
            }
            let plan_of_insert = plan(db, &insert_sql, insert(&tokens)).await;
            assert!(
                !reads_every_message(&plan_of_insert),
                "the events' insert with statistics {statistics} on {}: {plan_of_insert}",
                db.backend()
            );
            if let Some(writer) = writer.as_mut() {
                // Past the five runs after which PostgreSQL may keep a prepared statement's plan.
                for _ in 0..6 {
                    let read = rows_read(writer, vec![(&insert_sql, insert(&tokens))]).await;
                    assert!(
                        read < 1_000,
                        "a batch of {} events with statistics {statistics} read {read} rows",
                        tokens.len()
                    );
                }
            }
        }
        drop(writer);
        test_db.cleanup().await;
    })
    .await;
}

/// The tokens of the first 25 sent messages.
async fn sent_tokens(db: &Db) -> Vec<String> {
    on_db!(db, pool => sqlx::query_scalar(
        "select token from sent_emails where sent_at is not null order by id limit 25"
    )
    .fetch_all(pool)
    .await
    .unwrap())
}

/// An index is for sent mail only: each user's send times (the sent list, the monthly limit's count, the response
/// and template rates). A queued message has none, so it takes no entry in it, neither when it is written (a
/// follow-up run writes twenty thousand at once) nor when it is claimed (PostgreSQL writes the claimed row's new
/// version into every index that holds it); and the statements that read it still find it usable, as a reply's
/// lookup of its message finds the token's index.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_of_sent_mail_holds_no_queued_message_and_still_serves_its_reads() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (user_id, _, ids) =
            seed_campaign(db, "ada@example.org", 5_000, 5_000, None, "<p>Hi</p>").await;
        let limits = Limits {
            monthly_limit: 5_000,
            daily_cap: 5_000,
        };
        db.sending()
            .claim_messages(user_id, None, &ids[..200], limits, "lease", 0)
            .await
            .unwrap();
        // Against an index of every message, the campaign's.
        let every_message = index_size(db, "sent_emails_campaign_id").await;
        let sent_at = index_size(db, "sent_emails_user_sent_at").await;
        assert!(
            sent_at * 4 < every_message,
            "the send times' index holds the queued and claimed messages on {}: {sent_at} bytes against {every_message}",
            db.backend()
        );
        let user = || Parameter::Number(user_id);
        let reads = [
            (
                "a reply's message",
                FEEDBACK_FIND_BY_MESSAGE_ID.sql(db),
                vec![
                    Parameter::Text("t1".into()),
                    Parameter::Text("t1@bakery.example".into()),
                ],
                "sent_emails_token",
            ),
            (
                "the month's sends",
                SENT_EMAILS_COUNT_SINCE.sql(db),
                vec![user(), Parameter::Number(0)],
                "sent_emails_user_sent_at",
            ),
            (
                "the sent list",
                FEEDBACK_SENT_LIST.sql(db),
                vec![user(), Parameter::Number(25), Parameter::Number(0)],
                "sent_emails_user_sent_at",
            ),
            (
                "the sent follow-ups",
                FOLLOW_UP_SENT.sql(db),
                vec![user(), Parameter::Number(25)],
                "sent_emails_user_sent_at",
            ),
            (
                "the response totals",
                RESPONSE_TOTALS.sql(db),
                vec![user()],
                "sent_emails_user_sent_at",
            ),
            (
                "the template rates",
                RATES_OWN_RESULTS.sql(db),
                vec![
                    user(),
                    Parameter::Text("Lead Generation".into()),
                    Parameter::Text("friendly".into()),
                ],
                "sent_emails_user_sent_at",
            ),
        ];
        // PostgreSQL would read a table this small whole; with that cost made prohibitive it takes the best index
        // it can use.
        for (name, sql, parameters, index) in reads {
            let plan = plan_under(db, &["enable_seqscan = off"], sql, parameters).await;
            assert!(
                plan.contains(index),
                "{name} on {} does not use {index}: {plan}",
                db.backend()
            );
        }
        test_db.cleanup().await;
    })
    .await;
}

/// A reply names the message it answers by its Message-ID, whose local part is the message's token: the token's
/// index finds it, so no index of Message-IDs is written when a batch is marked sent (one entry a message at a place
/// its random token picks: as many pages changed as messages). The whole ID must match, angle brackets or not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sent_mark_indexes_no_message_id_and_a_reply_finds_its_message_by_token() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let (user_id, _, ids) =
            seed_campaign(db, "ada@example.org", 100, 3, None, "<p>Hi</p>").await;
        let limits = Limits {
            monthly_limit: 100,
            daily_cap: 100,
        };
        db.sending()
            .claim_messages(user_id, None, &ids, limits, "lease", 0)
            .await
            .unwrap();
        let token: String =
            on_db!(db, pool => sqlx::query_scalar("select token from sent_emails where id = $1")
            .bind(ids[1]).fetch_one(pool).await)
            .unwrap();
        let message_id = format!("{token}@bakery.example");
        let delivered = Delivered {
            id: ids[1],
            subject: "Hi",
            html: "<p>Hi</p>",
            text: None,
            message_id: &message_id,
            provider: Provider::Smtp,
        };
        db.sending().mark_sent_batch(&[delivered], 1).await.unwrap();
        let indexed = indexes_of(db, "sent_emails").await;
        assert!(
            !indexed.iter().any(|columns| columns.contains("message_id")),
            "{}: {indexed:?}",
            db.backend()
        );
        let found = |id: String| async move {
            db.inbound()
                .find_sent_by_message_id(&id)
                .await
                .unwrap()
                .map(|message| message.id)
        };
        assert_eq!(found(format!("<{message_id}>")).await, Some(ids[1]));
        assert_eq!(found(format!(" {message_id} ")).await, Some(ids[1]));
        assert_eq!(found(format!("<{token}@elsewhere.example>")).await, None);
        assert_eq!(found(token.clone()).await, None);
        // A queued message's token names no sent mail.
        let queued: String =
            on_db!(db, pool => sqlx::query_scalar("select token from sent_emails where id = $1")
            .bind(ids[0]).fetch_one(pool).await)
            .unwrap();
        assert_eq!(found(format!("<{queued}@bakery.example>")).await, None);
        test_db.cleanup().await;
    })
    .await;
}

/// SQLite runs a table's checks and a row trigger's program once for every row a statement writes, and what they
/// set up with them: a list of more than two values (`status in ('queued', 'sending', ...)`, `not in (...)`) is
/// looked up through a temporary index built each time. The check of a message's status did so for every row a
/// claim or a sent mark wrote, the check of an event's kind for every event, and the contacts' trigger for every
/// message whose status changed (a quarter of a claim's time, on rows it then ignored). A write of one message or
/// event, with every trigger it fires, builds no temporary table. (PostgreSQL evaluates such lists as they are,
/// and its triggers run once a statement.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_builds_no_temporary_table_for_each_message_or_event_written() {
    let test_db = TestDb::sqlite().await;
    let Db::Sqlite { readers, .. } = &test_db.db else {
        unreachable!("a SQLite database")
    };
    let writes = [
        // Every column an update of a message may set: each update trigger's program is in its plan.
        "update sent_emails set status = status, sent_at = sent_at, claimed_at = claimed_at,
             delivered_at = delivered_at, opened_at = opened_at, clicked_at = clicked_at, replied_at = replied_at,
             bounced_at = bounced_at, spam_reported_at = spam_reported_at, unsubscribed_at = unsubscribed_at,
             business_id = business_id, error = error, uncertain = uncertain where id = 1",
        "insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, kind, step)
             values (1, 'owner@cafe.example', 'Hi', 'queued', 0, 1, 'first', 0)",
        "insert into email_events (token, kind, url, user_agent, is_machine, occurred_at)
             values ('token', 'open', 'none', 'x', false, 0)",
    ];
    for write in writes {
        let steps = sqlx::query(sqlx::AssertSqlSafe(format!("explain {write}")))
            .fetch_all(readers)
            .await
            .unwrap();
        // The triggers' programs follow the statement's, each numbered from 0 again.
        let programs = steps
            .iter()
            .zip(steps.iter().skip(1))
            .filter(|(step, next)| next.get::<i64, _>(0) <= step.get::<i64, _>(0))
            .count();
        assert!(programs > 0, "`{write}` fires no trigger");
        let temporary = steps
            .iter()
            .filter(|step| step.get::<String, _>(1) == "OpenEphemeral")
            .count();
        assert_eq!(
            temporary, 0,
            "`{write}` builds a temporary table for each row"
        );
    }
    test_db.cleanup().await;
}
