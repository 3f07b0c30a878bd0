//! The inbox at scale (issue 34): 100,000 replies of one user in 50,000 conversations (20 campaigns, two replies
//! each, every reply read by the AI, one in ten with an answer waiting), seeded on PostgreSQL (`BENCH_DATABASE_URL`,
//! required). Then the list (first page, a page deep in the keyset, the interested and waiting filters, a search for a
//! name and one for a word in half the replies) and one conversation through the real router and HTTP: p50 and p95 of
//! each. `BENCH_REPLIES` changes the size. The
//! seeding SQL lives here: it is the benchmark's, not the product's.

use std::time::Instant;

use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::db::Db;
use outreach_core::testing::goals::{Goal, env_setting, report};
use support::{SESSION, scalar, serve, signed_in_database, timings};

mod support;

const ROUNDS: usize = 60;
/// The goal of issue 34 for every timed request, at p95.
const GOAL_MS: f64 = 50.0;

#[tokio::main]
async fn main() {
    let replies: i64 = env_setting("BENCH_REPLIES").unwrap_or(100_000);
    let (test_db, user) = signed_in_database().await;
    let Db::Postgres(pool) = &test_db.db else {
        unreachable!("a PostgreSQL test database")
    };
    let now = SystemClock.now_ms();
    let session = SESSION;
    let started = Instant::now();
    seed(pool, user.id, replies / 2, now).await;
    println!(
        "seeded {} replies in {} conversations in {:.1} s",
        scalar(pool, "select count(*) from inbound_messages").await,
        scalar(pool, "select count(*) from inbox_threads").await,
        started.elapsed().as_secs_f64()
    );

    let (base, server) = serve(&test_db).await;
    let client = reqwest::Client::new();
    let get = |path: String| {
        let request = client
            .get(format!("{base}{path}"))
            .header("cookie", format!("outreach_session={session}"));
        async move {
            let response = request.send().await.unwrap();
            assert!(response.status().is_success(), "{}", response.status());
            response.json::<serde_json::Value>().await.unwrap()
        }
    };
    // A cursor 100 pages deep, and a conversation from the middle.
    let mut cursor = String::new();
    for _ in 0..100 {
        let page = get(format!("/api/inbox/threads?cursor={cursor}")).await;
        cursor = page["nextCursor"].as_str().unwrap().to_string();
    }
    let middle =
        get(format!("/api/inbox/threads?cursor={cursor}&limit=1")).await["threads"][0]["id"]
            .as_i64()
            .unwrap();

    println!(
        "PostgreSQL, {replies} replies, p50 / p95 over {ROUNDS} requests (goal: p95 < {GOAL_MS} ms)"
    );
    let endpoints = [
        ("GET /api/inbox/threads", "/api/inbox/threads".to_string()),
        (
            "GET /api/inbox/threads (page 101)",
            format!("/api/inbox/threads?cursor={cursor}"),
        ),
        (
            "GET /api/inbox/threads?filter=interested",
            "/api/inbox/threads?filter=interested".to_string(),
        ),
        (
            "GET /api/inbox/threads?filter=awaiting",
            "/api/inbox/threads?filter=awaiting".to_string(),
        ),
        (
            "GET /api/inbox/threads?q=cafe4242",
            "/api/inbox/threads?q=cafe4242".to_string(),
        ),
        // A word in half the replies: the trigram index reads every reply that has it.
        (
            "GET /api/inbox/threads?q=rye",
            "/api/inbox/threads?q=rye".to_string(),
        ),
        (
            "GET /api/inbox/threads/{id}",
            format!("/api/inbox/threads/{middle}"),
        ),
    ];
    for (name, path) in endpoints {
        let (p50, p95) = timings(ROUNDS, || {
            let reply = get(path.clone());
            async move {
                reply.await;
            }
        })
        .await;
        let verdict = if p95 < GOAL_MS { "meets" } else { "misses" };
        println!("{name:<42} {p50:>8.2} / {p95:>8.2} ms   ({verdict} the goal)");
        report(
            "inbox",
            &format!("p95 {name}, {replies} replies, postgres"),
            p95,
            "ms",
            Goal::AtMost(GOAL_MS),
        );
    }
    server.abort();
    test_db.cleanup().await;
}

/// Campaigns, one business and one first email per conversation, the conversations, two replies each with the AI's
/// reading, and a waiting answer to one reply in ten.
async fn seed(pool: &sqlx::PgPool, user_id: i64, threads: i64, now: i64) {
    const DAY: i64 = 86_400_000;
    let statements = [
        "insert into campaigns (user_id, name, status, business_type, geographic_area, created_at, updated_at)
         select $1, 'Campaign ' || g, 'completed', 'bakery', 'Helsinki', $2 - 5270400000, $2
         from generate_series(1, 20) g where $3::bigint > 0",
        "insert into businesses (user_id, name, provider, found_at, name_address_key, created_at)
         select $1, 'Cafe ' || g, 'import', $2, 'cafe' || g, $2 from generate_series(1, $3) g",
        "insert into sent_emails (user_id, to_email, subject, status, created_at, sent_at, campaign_id, business_id,
             kind, step, token, html_body, is_test)
         select $1, 'owner@cafe' || b.id || '.example', 'Fresh bread for Cafe ' || b.id, 'replied', $2 - 2592000000,
             $2 - 2592000000, (select min(id) from campaigns) + b.id % 20, b.id, 'first', 0, md5(b.id::text),
             '<p>Hello</p>', false
         from businesses b where b.user_id = $1 and $3::bigint > 0",
        "insert into inbox_threads (user_id, root_message_id, campaign_id, business_id, config_id, to_email, subject,
             last_reply_at, last_from, excerpt, replies, unread)
         select $1, m.id, m.campaign_id, m.business_id, null, m.to_email, m.subject,
             $2 - (m.id % 20000) * 60000, m.to_email, 'Thanks, tell me more about the rye', 2, m.id % 3 = 0
         from sent_emails m where m.user_id = $1 and $3::bigint > 0",
        "insert into inbound_messages (user_id, message_id, kind, from_email, subject, body, source, received_at,
             header_message_id, thread_id)
         select $1, t.root_message_id, 'reply', t.to_email, 'Re: ' || t.subject,
             case r when 1 then 'Sounds interesting, what do you charge?' else 'Thanks, tell me more about the rye' end,
             'imap', t.last_reply_at - (2 - r) * 3600000, 'reply-' || t.id || '-' || r || '@cafe.example', t.id
         from inbox_threads t, generate_series(1, 2) r where t.user_id = $1 and $2::bigint > 0 and $3::bigint > 0",
        "update inbox_threads t set last_inbound_id = (select max(i.id) from inbound_messages i where i.thread_id = t.id)
         where t.user_id = $1 and $2::bigint > 0 and $3::bigint > 0",
        "insert into reply_readings (inbound_id, user_id, sentiment, action, confidence, language, summary,
             escalations, classifier, classified_at)
         select i.id, $1, case when i.id % 4 = 0 then 'positive' else 'neutral' end,
             case when i.id % 4 = 0 then 'mark_interested' else 'reply' end, 0.8, 'en', 'Asks about the rye',
             case when i.id % 10 = 0 then '[\"price\"]' else '[]' end, 'offline', $2
         from inbound_messages i where i.user_id = $1 and $3::bigint > 0",
        "insert into reply_answers (inbound_id, user_id, campaign_id, subject, body, status, why, writer, created_at,
             thread_id)
         select i.id, $1, t.campaign_id, 'Re: ' || t.subject, '<p>Happy to tell you more.</p>', 'awaiting_approval',
             'This campaign approves every answer', 'offline', $2, t.id
         from inbound_messages i join inbox_threads t on t.id = i.thread_id
         where i.user_id = $1 and i.id = t.last_inbound_id and t.id % 10 = 0 and $3::bigint > 0",
    ];
    for sql in statements {
        sqlx::query(sql)
            .bind(user_id)
            .bind(now - DAY)
            .bind(threads)
            .execute(pool)
            .await
            .unwrap();
    }
    sqlx::query("analyze").execute(pool).await.unwrap();
}
