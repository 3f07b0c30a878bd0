//! Data migrations, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: rows written before a migration read the
//! same after it as rows the app writes after it.

use outreach_core::platform::clock::DAY_MS;
use outreach_core::testing::TestDb;

/// Rows of every kind, written the way the app writes them (queued first, then one update), in SQL both backends
/// read: a user, 5 campaigns, 2,000 messages to 700 addresses over 20 days (sent, failed, skipped, bounced,
/// replied, opened, clicked, spam, unsubscribed, test sends); their open and click events follow.
const HISTORY: &[&str] = &[
    "insert into users (email, created_at, updated_at) values ('history@bakery.example', 0, 0)",
    "with recursive g(n) as (select 1 union all select n + 1 from g where n < 5)
     insert into campaigns (user_id, name, status, created_at, updated_at)
     select (select min(id) from users), 'Campaign ' || n, 'completed', 0, 0 from g",
    "with recursive g(n) as (select 1 union all select n + 1 from g where n < 2000)
     insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, step, token, is_test)
     select (select min(id) from users), 'owner' || (n % 700) || '@cafe.example', 'Hi', 'queued',
         cast(1795219200000 as bigint) - cast(n % 20 as bigint) * 86400000, (select min(id) from campaigns) + n % 5,
         (n / 5) % 100, 'token-' || n, n % 97 = 0
     from g",
    "update sent_emails set
         status = case when id % 50 = 1 then 'bounced' when id % 50 = 2 then 'replied' when id % 50 = 3 then 'failed'
             when id % 50 = 4 then 'skipped' when id % 50 = 5 then 'queued' when id % 10 < 3 then 'opened'
             else 'delivered' end,
         sent_at = case when id % 50 in (3, 4, 5) then null else created_at + 60000 end,
         delivered_at = case when id % 50 not in (1, 3, 4, 5) then created_at + 61000 end,
         opened_at = case when id % 10 < 3 and id % 50 not in (1, 3, 4, 5) then created_at + 86400000 end,
         clicked_at = case when id % 20 = 0 and id % 50 not in (3, 4, 5) then created_at + 90000000 end,
         replied_at = case when id % 50 = 2 then created_at + 7200000 end,
         bounced_at = case when id % 50 = 1 then created_at + 62000 end,
         bounce_reason = case when id % 50 = 1 then '550 5.1.1 unknown user' end,
         spam_reported_at = case when id % 300 = 7 then created_at + 9000000 end,
         unsubscribed_at = case when id % 200 = 9 then created_at + 9000000 end",
];

/// The history's open and click events as they were written before events named their message's id (migration 53).
const EVENTS_BY_TOKEN: &str = "insert into email_events (token, kind, url, user_agent, is_machine, occurred_at)
     select token, 'open', 'none', 'x', id % 4 = 0, opened_at from sent_emails where opened_at is not null
     union all
     select token, 'click', 'https://bakery.example', 'x', id % 4 = 0, clicked_at from sent_emails
     where clicked_at is not null";

/// The same events as the app writes them now, each with its message's id.
const EVENTS_BY_MESSAGE: &str = "insert into email_events (token, message, kind, url, user_agent, is_machine, occurred_at)
     select token, id, 'open', 'none', 'x', id % 4 = 0, opened_at from sent_emails where opened_at is not null
     union all
     select token, id, 'click', 'https://bakery.example', 'x', id % 4 = 0, clicked_at from sent_emails
     where clicked_at is not null";

/// What the analytics and contacts screens read for the history's user.
async fn analytics_of(db: &outreach_core::Db) -> serde_json::Value {
    let user = db
        .accounts()
        .find_user_by_email("history@bakery.example")
        .await
        .unwrap()
        .unwrap();
    let campaigns: Vec<_> = db
        .tracking()
        .campaigns_analytics(user.id)
        .await
        .unwrap()
        .into_iter()
        .map(|campaign| (campaign.campaign.id, campaign.summary))
        .collect();
    serde_json::json!({
        "campaigns": campaigns,
        "daily": db.tracking().daily_activity(user.id, None, 30, 1_795_219_200_000).await.unwrap(),
        "contacts": db.tracking().contacts(user.id).await.unwrap(),
        "stats": db.tracking().contact_stats(user.id).await.unwrap(),
    })
}

#[tokio::test]
async fn the_analytics_migration_counts_what_was_written_before_it_as_the_triggers_count_it_after()
{
    let before = TestDb::all_until(Some(20261121000012)).await;
    let after = TestDb::all().await;
    for (old, new) in before.into_iter().zip(after) {
        for statement in HISTORY {
            old.execute(statement).await;
            new.execute(statement).await;
        }
        old.execute(EVENTS_BY_TOKEN).await;
        new.execute(EVENTS_BY_MESSAGE).await;
        old.db.migrate().await.unwrap();
        let (backfilled, counted) = (analytics_of(&old.db).await, analytics_of(&new.db).await);
        assert_eq!(backfilled, counted, "{}", old.db.backend());
        // The history has every kind of fact, so an empty or partial backfill cannot pass.
        for field in [
            "totalSent",
            "failed",
            "skipped",
            "opened",
            "clicked",
            "replied",
            "bounced",
            "spamReported",
            "unsubscribed",
            "totalOpens",
            "machineOpens",
            "totalClicks",
            "queued",
        ] {
            let total: i64 = counted["campaigns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|campaign| campaign[1][field].as_i64().unwrap())
                .sum();
            assert!(total > 0, "{field} in {}", counted["campaigns"]);
        }
        // 700 addresses, less those that only had queued, skipped or test messages.
        assert!(counted["contacts"].as_array().unwrap().len() > 600);
        old.cleanup().await;
        new.cleanup().await;
    }
}

#[tokio::test]
async fn follow_ups_written_before_unique_positions_keep_their_first_four_in_order() {
    for old in TestDb::all_until(Some(20261121000016)).await {
        old.execute(
            "insert into users (email, created_at, updated_at) values ('racer@bakery.example', 0, 0)",
        )
        .await;
        old.execute(
            "insert into email_templates (user_id, name, subject, body, objective, tone, email_signature, created_at,
                 updated_at)
             select min(id), 'Main', 'Hi', '<p>Hi</p>', 'Lead Generation', 'friendly', 'Ada', 0, 0 from users",
        )
        .await;
        // What racing creates left: six follow-ups, five of them numbered 1 (subjects say their order).
        old.execute(
            "with recursive g(n) as (select 1 union all select n + 1 from g where n < 6)
             insert into follow_up_templates (main_template_id, user_id, name, subject, body, objective, tone,
                 sequence_number, delay_days, created_at, updated_at)
             select (select min(id) from email_templates), (select min(id) from users), 'F', 'Subject ' || n, 'b',
                 'Follow-up', 'professional', case when n = 2 then 2 else 1 end, 3, 0, 0 from g",
        )
        .await;
        old.db.migrate().await.unwrap();
        let (template, user): (i64, i64) = outreach_core::on_db!(&old.db, pool => sqlx::query_as(
            "select id, user_id from email_templates").fetch_one(pool).await)
        .unwrap();
        let rows = old
            .db
            .campaigns()
            .list_follow_ups(template, user)
            .await
            .unwrap();
        let kept: Vec<(i32, &str)> = rows
            .iter()
            .map(|row| (row.sequence_number, row.subject.as_str()))
            .collect();
        assert_eq!(
            kept,
            [
                (1, "Subject 1"),
                (2, "Subject 3"),
                (3, "Subject 4"),
                (4, "Subject 5")
            ],
            "{}",
            old.db.backend()
        );
        old.cleanup().await;
    }
}

/// Issue 30.4: answers were steps 100 and above of their campaign, counted among its emails. After the message-kind
/// migration an answer is answer 1, a follow-up keeps its number, the unique key holds per kind, and the campaign's
/// figures count its first email and follow-up only.
#[tokio::test]
async fn messages_written_before_kinds_get_theirs_and_answers_leave_the_campaign_figures() {
    for old in TestDb::all_until(Some(20261126000035)).await {
        for statement in [
            "insert into users (email, created_at, updated_at) values ('kinds@bakery.example', 0, 0)",
            "insert into campaigns (user_id, name, status, created_at, updated_at)
             select min(id), 'Kinds', 'completed', 0, 0 from users",
            "insert into businesses (user_id, name, email, provider, found_at, name_address_key, created_at)
             select min(id), 'Cafe', 'owner@cafe.example', 'import', 0, 'cafe', 0 from users",
            // A first email, follow-up 1 and an answer (step 100), each sent and opened; and a test send.
            "insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, business_id, step,
                 token, is_test)
             select (select min(id) from users), 'owner@cafe.example', 'Hi', 'queued', 1795219200000,
                 (select min(id) from campaigns), case when n = 3 then null else (select min(id) from businesses) end,
                 case n when 0 then 0 when 1 then 1 when 2 then 100 else 0 end, 'kind-' || n, n = 3
             from (select 0 as n union all select 1 union all select 2 union all select 3) as g",
            "update sent_emails set status = 'opened', sent_at = created_at + 1000, opened_at = created_at + 2000",
        ] {
            old.execute(statement).await;
        }
        old.db.migrate().await.unwrap();
        let kinds: Vec<(String, i32)> = outreach_core::on_db!(&old.db, pool => sqlx::query_as(
            "select kind, step from sent_emails order by id").fetch_all(pool).await)
        .unwrap();
        let kinds: Vec<(&str, i32)> = kinds
            .iter()
            .map(|(kind, step)| (kind.as_str(), *step))
            .collect();
        assert_eq!(
            kinds,
            [("first", 0), ("follow_up", 1), ("answer", 1), ("test", 0)],
            "{}",
            old.db.backend()
        );
        let user = old
            .db
            .accounts()
            .find_user_by_email("kinds@bakery.example")
            .await
            .unwrap()
            .unwrap();
        let totals = old
            .db
            .tracking()
            .campaign_totals(user.id, None)
            .await
            .unwrap();
        assert_eq!(
            (totals[0].messages, totals[0].sent, totals[0].opened),
            (2, 2, 2),
            "{}",
            old.db.backend()
        );
        let day = 1_795_219_200_000 / DAY_MS * DAY_MS;
        let daily = old
            .db
            .tracking()
            .daily_activity(user.id, None, 1, day)
            .await
            .unwrap();
        assert_eq!(
            (daily[0].sent, daily[0].opened),
            (2, 2),
            "{}",
            old.db.backend()
        );
        old.cleanup().await;
    }
}

#[tokio::test]
async fn replies_before_the_inbox_are_its_conversations_read_in_order_with_waiting_answers() {
    for old in TestDb::all_until(Some(20261126000038)).await {
        for statement in [
            "insert into users (email, created_at, updated_at) values ('inbox@bakery.example', 0, 0)",
            "insert into campaigns (user_id, name, status, created_at, updated_at)
             select min(id), 'Inbox', 'completed', 0, 0 from users",
            "insert into businesses (user_id, name, email, provider, found_at, name_address_key, created_at)
             select min(id), 'Cafe ' || n, 'owner@cafe.example', 'import', 0, 'cafe' || n, 0 from users,
                 (select 1 as n union all select 2) as g group by n",
            // For each café a first email and a follow-up, sent.
            "insert into sent_emails (user_id, to_email, subject, status, created_at, sent_at, campaign_id, business_id,
                 kind, step, token, is_test)
             select (select min(id) from users), 'owner' || b.id || '@cafe.example', 'Hi ' || b.name, 'sent', 1000,
                 1000 + s.step, (select min(id) from campaigns), b.id, case when s.step = 0 then 'first' else 'follow_up' end,
                 s.step, 'inbox-' || b.id || '-' || s.step, false
             from businesses b, (select 0 as step union all select 1) as s",
            // Café 1 answered the first email, then the follow-up; café 2 sent an out-of-office; and a bounce.
            "insert into inbound_messages (user_id, message_id, kind, from_email, subject, body, source, received_at)
             select m.user_id, m.id, case when b.name = 'Cafe 1' then 'reply' else 'auto_reply' end, m.to_email,
                 'Re: ' || m.subject, 'Answer to step ' || m.step, 'imap',
                 case when b.name = 'Cafe 1' then 8000 + m.step else 6000 end
             from sent_emails m join businesses b on b.id = m.business_id
             where b.name = 'Cafe 1' or m.step = 0",
            "insert into inbound_messages (user_id, message_id, kind, from_email, subject, body, source, received_at)
             select user_id, min(id), 'bounce', null, 'Undelivered', 'No such user', 'imap', 9000 from sent_emails
             group by user_id",
            // An answer to café 1's last reply waits for approval.
            "insert into reply_answers (inbound_id, user_id, campaign_id, subject, body, status, writer, created_at)
             select max(i.id), min(i.user_id), min(m.campaign_id), 'Re: Hi', 'Thanks', 'awaiting_approval', 'offline', 9000
             from inbound_messages i join sent_emails m on m.id = i.message_id where i.kind = 'reply'",
        ] {
            old.execute(statement).await;
        }
        old.db.migrate().await.unwrap();
        let user = old
            .db
            .accounts()
            .find_user_by_email("inbox@bakery.example")
            .await
            .unwrap()
            .unwrap();
        let threads = old
            .db
            .inbox()
            .list_threads(user.id, &Default::default(), 10)
            .await
            .unwrap();
        let listed: Vec<(&str, i64, bool, &str, bool)> = threads
            .iter()
            .map(|thread| {
                (
                    thread.subject.as_str(),
                    thread.replies,
                    thread.unread,
                    thread.excerpt.as_str(),
                    thread.awaiting,
                )
            })
            .collect();
        assert_eq!(
            listed,
            [
                ("Hi Cafe 1", 2, false, "Answer to step 1", true),
                ("Hi Cafe 2", 1, false, "Answer to step 0", false)
            ],
            "{}",
            old.db.backend()
        );
        let received = old
            .db
            .inbox()
            .received_in_thread(threads[0].id)
            .await
            .unwrap();
        assert_eq!(received.len(), 2, "{}", old.db.backend());
        old.cleanup().await;
    }
}

/// Issue 32: hand-overs moved to a table of their own. A message a worker was handing over when the migration ran
/// keeps its hand-over (recovery still sees it in doubt, with its Message-ID), one never handed over has none, and a
/// message that leaves sending takes its hand-over with it.
#[tokio::test]
async fn hand_overs_recorded_before_their_table_are_still_seen_by_recovery() {
    for old in TestDb::all_until(Some(20261127000040)).await {
        for statement in [
            "insert into users (email, created_at, updated_at) values ('hand@bakery.example', 0, 0)",
            "insert into sent_emails (user_id, to_email, subject, status, created_at, token, claimed_by, claimed_at)
             select (select min(id) from users), 'owner' || n || '@cafe.example', 'Hi', 'sending', 0, 'hand-' || n,
                 'gone-lease', 1
             from (select 0 as n union all select 1) as g",
            "update sent_emails set handed_by = 'gone-lease/1', handed_seq = 7, message_id = 'hand-0@bakery.example'
             where token = 'hand-0'",
        ] {
            old.execute(statement).await;
        }
        old.db.migrate().await.unwrap();
        let seen = old
            .db
            .sending()
            .interrupted_sends(0, i64::MAX)
            .await
            .unwrap();
        let mut how_far: Vec<(Option<String>, Option<i64>)> = seen
            .iter()
            .map(|message| (message.handed_by.clone(), message.handed_seq))
            .collect();
        how_far.sort();
        assert_eq!(
            how_far,
            [(None, None), (Some("gone-lease/1".to_string()), Some(7))],
            "{}",
            old.db.backend()
        );
        let handed = seen
            .iter()
            .find(|message| message.handed_by.is_some())
            .unwrap()
            .id;
        old.db
            .sending()
            .mark_uncertain(handed, "under way", None)
            .await
            .unwrap();
        let left: i64 = outreach_core::on_hand_overs!(&old.db, pool =>
            sqlx::query_scalar("select count(*) from send_handovers").fetch_one(pool).await)
        .unwrap();
        let message_id: Option<String> = outreach_core::on_db!(&old.db, pool =>
            sqlx::query_scalar("select message_id from sent_emails where token = 'hand-0'")
                .fetch_one(pool).await)
        .unwrap();
        assert_eq!(
            (left, message_id.as_deref()),
            (0, Some("hand-0@bakery.example")),
            "{}",
            old.db.backend()
        );
        old.cleanup().await;
    }
}

/// Issue 32: claims moved to a table of their own. A message in sending when the migration ran keeps its claim
/// (recovery still sees it under its lease, and the progress bar as being sent) with its row queued; a queued one has
/// none; and recovery gives the claim back when it queues the message again.
#[tokio::test]
async fn claims_made_before_their_table_are_still_seen_by_recovery() {
    for old in TestDb::all_until(Some(20261205000051)).await {
        for statement in [
            "insert into users (email, created_at, updated_at) values ('claim@bakery.example', 0, 0)",
            "insert into campaigns (user_id, name, status, created_at, updated_at)
             values ((select min(id) from users), 'Claims', 'active', 0, 0)",
            "insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, kind, step, token,
                 claimed_by, claimed_at)
             select (select min(id) from users), 'owner' || n || '@cafe.example', 'Hi',
                 case when n = 0 then 'sending' else 'queued' end, 0, (select min(id) from campaigns), 'first', n,
                 'claim-' || n, case when n = 0 then 'gone-lease' end, case when n = 0 then 5 end
             from (select 0 as n union all select 1) as g",
        ] {
            old.execute(statement).await;
        }
        old.db.migrate().await.unwrap();
        let store = old.db.sending();
        let seen = store.interrupted_sends(0, i64::MAX).await.unwrap();
        assert_eq!(
            seen.iter()
                .map(|message| message.claimed_by.as_deref())
                .collect::<Vec<_>>(),
            [Some("gone-lease")],
            "{}",
            old.db.backend()
        );
        let campaign_id: i64 = outreach_core::on_db!(&old.db, pool =>
            sqlx::query_scalar("select min(id) from campaigns").fetch_one(pool).await)
        .unwrap();
        let progress = store.campaign_progress(campaign_id).await.unwrap();
        assert_eq!(
            (progress.sending, progress.queued, progress.total),
            (1, 1, 2),
            "{}",
            old.db.backend()
        );
        let campaign = store
            .recover_to_queue(seen[0].id, "back to the queue")
            .await
            .unwrap();
        assert_eq!(campaign, Some(Some(campaign_id)), "{}", old.db.backend());
        let progress = store.campaign_progress(campaign_id).await.unwrap();
        assert_eq!(
            (progress.sending, progress.queued),
            (0, 2),
            "{}",
            old.db.backend()
        );
        old.cleanup().await;
    }
}
