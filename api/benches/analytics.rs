//! Analytics at scale: 1,000,000 messages (20 campaigns over 60 days, five messages to each address; 30% opened with
//! 1–2 open events each, a quarter of them by machines, 5% clicked, 2% replied, 2% bounced, 0.1% spam) and their
//! events, seeded on PostgreSQL (`BENCH_DATABASE_URL`, required) through the same triggers that keep the daily
//! counters in production. Then each analytics and contacts endpoint through the real router and HTTP, as the first
//! user, and beside it the same numbers computed from raw rows (the aggregates the counters replace, run straight on
//! the database, so the comparison favours raw rows); p50 and p95 of each. `BENCH_MESSAGES`, `BENCH_CAMPAIGNS` and
//! `BENCH_USERS` change the size (S7: 10,000,000 messages, 1,000 campaigns, 100 users; the campaigns are shared
//! out among the users). `BENCH_RUNS` (default 1) measures the endpoints that many times over the one seed (seeding
//! S7's size takes longer than all its requests). The seeding SQL and the raw aggregates live here: they are the
//! benchmark's, not the product's.

use std::time::Instant;

use outreach_core::platform::clock::{Clock, SystemClock};
use outreach_core::platform::db::Db;
use outreach_core::testing::goals::{Goal, env_setting, report};
use support::{SESSION, premium_user, scalar, serve, signed_in_database, timings};

mod support;

const ROUNDS: usize = 60;
const RAW_ROUNDS: usize = 15;

#[tokio::main]
async fn main() {
    let size = |name: &str, default: i64| -> i64 { env_setting(name).unwrap_or(default) };
    let (messages, campaigns, users, runs) = (
        size("BENCH_MESSAGES", 1_000_000),
        size("BENCH_CAMPAIGNS", 20),
        size("BENCH_USERS", 1),
        size("BENCH_RUNS", 1),
    );
    let (test_db, user) = signed_in_database().await;
    let Db::Postgres(pool) = &test_db.db else {
        unreachable!("a PostgreSQL test database")
    };
    let now = SystemClock.now_ms();

    let started = Instant::now();
    seed(pool, messages, campaigns, users, now).await;
    println!(
        "seeded {messages} messages of {users} users and {} events in {:.1} s (counters kept by the triggers)",
        scalar(pool, "select count(*) from email_events").await,
        started.elapsed().as_secs_f64()
    );
    let campaign: i64 = sqlx::query_scalar("select min(id) from campaigns where user_id = $1")
        .bind(user.id)
        .fetch_one(pool)
        .await
        .unwrap();
    let own: i64 = sqlx::query_scalar("select count(*) from sent_emails where user_id = $1")
        .bind(user.id)
        .fetch_one(pool)
        .await
        .unwrap();

    let (base, server) = serve(&test_db).await;
    let client = reqwest::Client::new();

    for run in 1..=runs {
        println!(
            "PostgreSQL, {messages} messages ({own} of them the user's), p50 / p95 over {ROUNDS} requests (raw rows: {RAW_ROUNDS}), run {run} of {runs}"
        );
        measure(&client, &base, pool, &user, campaign, messages, now).await;
    }

    server.abort();
    test_db.cleanup().await;
}

/// One pass over the endpoints: p50 and p95 of each as the first user, and beside it the raw rows' version.
async fn measure(
    client: &reqwest::Client,
    base: &str,
    pool: &sqlx::PgPool,
    user: &outreach_core::accounts::User,
    campaign: i64,
    messages: i64,
    now: i64,
) {
    let session = SESSION;
    let endpoints = [
        (
            "GET /api/analytics/campaigns",
            "/api/analytics/campaigns".to_string(),
            RAW_CAMPAIGNS,
        ),
        (
            "GET /api/campaigns/{id}/details",
            format!("/api/campaigns/{campaign}/details"),
            RAW_DETAILS,
        ),
        (
            "GET /api/campaigns/{id}/daily",
            format!("/api/campaigns/{campaign}/daily?days=30"),
            RAW_CAMPAIGN_DAILY,
        ),
        (
            "GET /api/analytics/daily",
            "/api/analytics/daily?days=30".to_string(),
            RAW_DAILY,
        ),
        (
            "GET /api/contacts/stats",
            "/api/contacts/stats".to_string(),
            RAW_CONTACT_STATS,
        ),
        (
            "GET /api/contacts/all",
            "/api/contacts/all".to_string(),
            RAW_CONTACTS,
        ),
    ];
    for (name, path, raw) in endpoints {
        let served = timings(ROUNDS, || {
            let request = client
                .get(format!("{base}{path}"))
                .header("cookie", format!("outreach_session={session}"));
            async move {
                let response = request.send().await.unwrap();
                assert!(response.status().is_success(), "{}", response.status());
                response.bytes().await.unwrap();
            }
        })
        .await;
        let line = format!(
            "{name:<34} counters {:>8.2} / {:>8.2} ms",
            served.0, served.1
        );
        report(
            "S7",
            &format!("p95 {name}, {messages} messages, postgres"),
            served.1,
            "ms",
            Goal::AtMost(50.0),
        );
        if raw.is_empty() {
            println!("{line}   (no counter version: read from the messages)");
            continue;
        }
        let raw_times = timings(RAW_ROUNDS, || {
            let query = sqlx::query(raw).bind(user.id).bind(campaign).bind(now);
            async move {
                query.fetch_all(pool).await.unwrap();
            }
        })
        .await;
        println!(
            "{line}   raw rows {:>8.2} / {:>8.2} ms   ({:.0}× faster at p95)",
            raw_times.0,
            raw_times.1,
            raw_times.1 / served.1
        );
    }
}

/// `users` accounts (the signed-in one first) sharing `campaigns` campaigns, queued messages first, then one update
/// that sends them and stamps what happened (the counters' trigger sees it as production does), then the open and
/// click events.
async fn seed(pool: &sqlx::PgPool, messages: i64, campaigns: i64, users: i64, now: i64) {
    const DAY: i64 = 86_400_000;
    let db = Db::Postgres(pool.clone());
    for other in 1..users {
        premium_user(&db, &format!("owner{other}@bakery.example"), now).await;
    }
    sqlx::query(
        "insert into campaigns (user_id, name, status, business_type, geographic_area, created_at, updated_at)
         select u.id, 'Campaign ' || g, 'completed', 'bakery', 'Helsinki', $1, $1
         from generate_series(0, $2 - 1) g
             join (select id, row_number() over (order by id) - 1 as n from users) u on u.n = g % $3
         order by g",
    )
    .bind(now - 61 * DAY)
    .bind(campaigns)
    .bind(users)
    .execute(pool)
    .await
    .unwrap();
    let first: i64 = scalar(pool, "select min(id) from campaigns").await;
    sqlx::query(
        "insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, step, token, html_body,
             is_test)
         select c.user_id, 'owner' || (g / ($3 * 5)) || '@cafe' || (g % $3) || '.example', 'Fresh bread', 'queued',
             $1 - (g % 60) * 86400000 - (g % 1000) * 1000, c.id, g / $3, md5(g::text), '<p>Hello</p>', false
         from generate_series(1, $4) g join campaigns c on c.id = $2 + g % $3",
    )
    .bind(now)
    .bind(first)
    .bind(campaigns)
    .bind(messages)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "update sent_emails set
             status = case when id % 50 = 1 then 'bounced' when id % 50 = 2 then 'replied'
                 when id % 10 < 3 then 'opened' else 'delivered' end,
             sent_at = created_at + 60000,
             delivered_at = case when id % 50 <> 1 then created_at + 61000 end,
             opened_at = case when id % 10 < 3 and id % 50 <> 1 then created_at + 3600000 end,
             clicked_at = case when id % 20 = 0 then created_at + 3700000 end,
             replied_at = case when id % 50 = 2 then created_at + 7200000 end,
             bounced_at = case when id % 50 = 1 then created_at + 62000 end,
             bounce_reason = case when id % 50 = 1 then '550 5.1.1 unknown user' end,
             spam_reported_at = case when id % 1000 = 3 then created_at + 9000000 end",
    )
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into email_events (token, message, kind, url, user_agent, is_machine, occurred_at)
         select token, id, 'open', null, 'Mozilla/5.0', id % 4 = 0, opened_at from sent_emails
         where opened_at is not null
         union all
         select token, id, 'open', null, 'Mozilla/5.0', false, opened_at + 86400000 from sent_emails
         where opened_at is not null and id % 2 = 0
         union all
         select token, id, 'click', 'https://bakery.example/menu', 'Mozilla/5.0', false, clicked_at from sent_emails
         where clicked_at is not null",
    )
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("analyze").execute(pool).await.unwrap();
}

/// The campaign list's numbers from raw rows: every campaign's counts and its opens and clicks.
const RAW_CAMPAIGNS: &str = "
select c.id, count(m.id), count(m.sent_at), count(*) filter (where m.status = 'failed'),
    count(m.delivered_at), count(m.opened_at), count(m.clicked_at), count(m.replied_at), count(m.bounced_at),
    count(m.spam_reported_at), count(m.unsubscribed_at),
    (select count(*) from email_events e join sent_emails s on s.id = e.message
        where s.campaign_id = c.id and e.kind = 'open' and not e.is_machine),
    (select count(*) from email_events e join sent_emails s on s.id = e.message
        where s.campaign_id = c.id and e.kind = 'click')
from campaigns c left join sent_emails m on m.campaign_id = c.id and not m.is_test
where c.user_id = $1 and $2::bigint is not null and $3::bigint is not null
group by c.id";

/// The contact stats from raw rows: every message of the user grouped by address.
const RAW_CONTACT_STATS: &str = "
select count(*), count(opened_at), count(replied_at), count(bounced_at), count(spam_reported_at)
from (select to_email, max(opened_at) as opened_at, max(replied_at) as replied_at, max(bounced_at) as bounced_at,
        max(spam_reported_at) as spam_reported_at
    from sent_emails where user_id = $1 and not is_test and sent_at is not null group by to_email) c
where $2::bigint is not null and $3::bigint is not null";

/// The contact list from raw rows: the 2,000 most recently contacted addresses with their first times.
const RAW_CONTACTS: &str = "
select to_email, count(*), max(sent_at), min(delivered_at), min(opened_at), min(clicked_at), min(replied_at),
    min(bounced_at), min(spam_reported_at), max(coalesce(sent_at, created_at)) as last_activity_at
from sent_emails where user_id = $1 and not is_test and status not in ('queued', 'sending', 'skipped')
    and $2::bigint is not null and $3::bigint is not null
group by to_email order by last_activity_at desc limit 2000";

/// One campaign's summary from raw rows, and the first page of its messages.
const RAW_DETAILS: &str = "
select count(m.id), count(m.sent_at), count(m.delivered_at), count(m.opened_at), count(m.clicked_at),
    count(m.bounced_at), count(m.spam_reported_at),
    (select count(*) from email_events e join sent_emails s on s.id = e.message
        where s.campaign_id = $2 and e.kind = 'open' and not e.is_machine),
    (select count(*) from email_events e join sent_emails s on s.id = e.message
        where s.campaign_id = $2 and e.kind = 'click')
from sent_emails m where m.campaign_id = $2 and m.user_id = $1 and $3::bigint is not null";

/// One campaign's last 30 days from raw rows.
const RAW_CAMPAIGN_DAILY: &str = "
select day, sum(sent), sum(opened), sum(clicked), sum(replied) from (
    select sent_at / 86400000 as day, 1 as sent, 0 as opened, 0 as clicked, 0 as replied from sent_emails
        where campaign_id = $2 and user_id = $1 and sent_at >= $3 - 2592000000
    union all select opened_at / 86400000, 0, 1, 0, 0 from sent_emails
        where campaign_id = $2 and user_id = $1 and opened_at >= $3 - 2592000000
    union all select clicked_at / 86400000, 0, 0, 1, 0 from sent_emails
        where campaign_id = $2 and user_id = $1 and clicked_at >= $3 - 2592000000
    union all select replied_at / 86400000, 0, 0, 0, 1 from sent_emails
        where campaign_id = $2 and user_id = $1 and replied_at >= $3 - 2592000000
) facts group by day order by day";

/// Every campaign's last 30 days from raw rows.
const RAW_DAILY: &str = "
select day, sum(sent), sum(opened), sum(clicked), sum(replied) from (
    select sent_at / 86400000 as day, 1 as sent, 0 as opened, 0 as clicked, 0 as replied from sent_emails
        where user_id = $1 and sent_at >= $3 - 2592000000
    union all select opened_at / 86400000, 0, 1, 0, 0 from sent_emails
        where user_id = $1 and opened_at >= $3 - 2592000000
    union all select clicked_at / 86400000, 0, 0, 1, 0 from sent_emails
        where user_id = $1 and clicked_at >= $3 - 2592000000
    union all select replied_at / 86400000, 0, 0, 0, 1 from sent_emails
        where user_id = $1 and replied_at >= $3 - 2592000000
) facts group by day order by day, $2::bigint";
