//! The plans of the send path's batch statements, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: none reads
//! the queue to find its messages, whatever the statistics say. A statement that joins a batch's ids with a status
//! let PostgreSQL read every message in that status through an index that holds it, when the statistics say there
//! are few: a claim read all 20,000 queued messages to claim 200 (docs/benchmarks.md, Sending), so each claim grew
//! with every user's queue, and the statistics are stale just when a campaign has queued its messages. Only the sent
//! mark may read the messages in sending (as many as the workers' batches hold): looked up by primary key, its join
//! with the batch's bodies became a nested loop over both (40,000 rows compared for 200).

use outreach_core::Db;
use outreach_core::platform::queries::{
    OUTGOING_CLAIM_BATCH, OUTGOING_HAND, OUTGOING_RELEASE_BATCH, OUTGOING_SENT_BATCH,
};
use outreach_core::sending::handover::HandOver;
use outreach_core::sending::messages::Limits;
use outreach_core::testing::{each_backend, seed_campaign};

/// A statement's parameter, bound as its type (PostgreSQL infers a parameter's type from what is bound).
enum Parameter {
    Text(String),
    Number(i64),
    Numbers(Vec<i64>),
    Texts(Vec<String>),
}

/// The plan of a statement, with parameters, as a prepared statement runs it once its plan is kept (for any
/// parameters). SQLite's is read on the hand-over file's connection, which sees both files.
async fn plan(db: &Db, sql: &str, parameters: Vec<Parameter>) -> String {
    let lines: Vec<String> = match db {
        Db::Postgres(pool) => {
            let mut connection = pool.acquire().await.unwrap();
            sqlx::query("set plan_cache_mode = force_generic_plan")
                .execute(&mut *connection)
                .await
                .unwrap();
            let explain = format!("explain {sql}");
            let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(explain));
            for parameter in parameters {
                query = match parameter {
                    Parameter::Text(text) => query.bind(text),
                    Parameter::Number(number) => query.bind(number),
                    Parameter::Numbers(numbers) => query.bind(numbers),
                    Parameter::Texts(texts) => query.bind(texts),
                };
            }
            let lines = query.fetch_all(&mut *connection).await.unwrap();
            sqlx::query("reset plan_cache_mode")
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
                    Parameter::Numbers(_) | Parameter::Texts(_) => {
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

/// The plans of the claim, the hand-over, the sent mark and the release of a batch of 25 messages, each with
/// whether it may read the messages in sending through their index.
async fn batch_plans(
    db: &Db,
    queued: &[i64],
    sending: &[i64],
) -> Vec<(&'static str, bool, String)> {
    let json = |ids: &[i64]| serde_json::to_string(ids).unwrap();
    let window: Vec<HandOver> = sending
        .iter()
        .map(|&id| HandOver::handed(id, "lease/1".into(), 1, format!("<{id}@bakery.example>")))
        .collect();
    let texts = |text: &str| vec![text.to_owned(); sending.len()];
    let sent_mark = match db {
        Db::Postgres(_) => vec![
            Parameter::Numbers(sending.to_vec()),
            Parameter::Texts(texts("Fresh bread")),
            Parameter::Texts(texts("<p>Hi</p>")),
            Parameter::Texts(texts("Hi")),
            Parameter::Texts(texts("<1@bakery.example>")),
            Parameter::Texts(texts("smtp")),
            Parameter::Number(1),
        ],
        Db::Sqlite { .. } => {
            let rows: Vec<serde_json::Value> = sending
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
    };
    let claim = vec![
        Parameter::Text(json(queued)),
        Parameter::Number(1),
        Parameter::Text("lease".into()),
    ];
    let hand = vec![Parameter::Text(serde_json::to_string(&window).unwrap())];
    let release = vec![
        Parameter::Text(json(sending)),
        Parameter::Text("why".into()),
        Parameter::Text("why".into()),
    ];
    vec![
        (
            "claim",
            false,
            plan(db, OUTGOING_CLAIM_BATCH.sql(db), claim).await,
        ),
        (
            "hand-over",
            false,
            plan(db, OUTGOING_HAND.sql(db), hand).await,
        ),
        (
            "sent mark",
            true,
            plan(db, OUTGOING_SENT_BATCH.sql(db), sent_mark).await,
        ),
        (
            "release",
            false,
            plan(db, OUTGOING_RELEASE_BATCH.sql(db), release).await,
        ),
    ]
}

/// With 5,000 messages queued and 5,000 in sending (on a table much smaller, reading it whole can cost no more
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
            .claim_messages(user_id, None, &ids[5_000..], limits, "gone", 0)
            .await
            .unwrap();
        let (queued, sending) = (&ids[..25], &ids[5_000..5_025]);
        for statistics in ["none", "taken"] {
            if statistics == "taken"
                && let Db::Postgres(pool) = db
            {
                sqlx::query("analyze sent_emails")
                    .execute(pool)
                    .await
                    .unwrap();
            }
            for (name, may_read_sending, plan) in batch_plans(db, queued, sending).await {
                assert!(
                    (may_read_sending || !plan.contains("sent_emails_sending"))
                        && !plan.contains("sent_emails_campaign_status")
                        && !plan.contains("SCAN sent_emails")
                        && !plan.contains("Seq Scan on sent_emails"),
                    "{name} with statistics {statistics} on {}: {plan}",
                    db.backend()
                );
            }
        }
        test_db.cleanup().await;
    })
    .await;
}
