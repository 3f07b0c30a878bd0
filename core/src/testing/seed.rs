//! Seeded campaigns for sending and follow-up tests and benchmarks: queued first emails, or first emails already
//! sent (in bulk, by SQL, so a benchmark can hold a million) with some of them opened and their follow-up due.

use crate::accounts::Grant;
use crate::campaigns::store::NewCampaign;
use crate::campaigns::templates::{FollowUpContent, TemplateContent};
use crate::platform::clock::{Clock, DAY_MS, SystemClock};
use crate::platform::config::AccountSettings;
use crate::platform::db::Db;
use crate::platform::window::SendingWindow;
use crate::sending::messages::MessageKind;
use crate::sending::outgoing::{Letter, Outgoing};

/// `email`'s account with a monthly `limit`, an active campaign that sends at any time, and a template with
/// `body`: (user id, campaign id, template id).
async fn account_with_campaign(
    db: &Db,
    email: &str,
    limit: i64,
    body: &str,
    now: i64,
) -> (i64, i64, i64) {
    let grant =
        Grant::Premium { email_limit: limit }.subscription(now, &AccountSettings::default());
    let user = db
        .accounts()
        .set_subscription(email, &grant, now)
        .await
        .expect("the account");
    let campaign = NewCampaign {
        name: "Seeded",
        status: crate::campaigns::CampaignStatus::Active,
        business_type: None,
        geographic_area: None,
        radius: 25,
        max_results: 50,
        window: &SendingWindow::always(),
    };
    let campaign = db
        .campaigns()
        .insert_campaign(user.id, &campaign, now)
        .await
        .expect("the campaign");
    let template = TemplateContent {
        name: "Seeded".into(),
        subject: "Fresh bread for {{businessName | you}}".into(),
        body: body.into(),
        objective: "Partnership Proposal".into(),
        tone: "friendly".into(),
        email_signature: None,
    };
    let template = db
        .campaigns()
        .insert_template(user.id, &template, now)
        .await
        .expect("the template");
    (user.id, campaign, template)
}

/// A campaign ready to send, for sending tests and benchmarks: `email`'s account with a monthly `limit`, an active
/// campaign, a template with `body`, and `recipients` queued messages (to `owner{i}@cafe{i}.example`) through
/// `config_id` (None: the outbox). Returns (user id, campaign id, message ids).
pub async fn seed_campaign(
    db: &Db,
    email: &str,
    limit: i64,
    recipients: usize,
    config_id: Option<i64>,
    body: &str,
) -> (i64, i64, Vec<i64>) {
    seed_messages(db, email, limit, recipients, (config_id, &[]), body).await
}

/// As [`seed_campaign`], the first emails of a campaign whose `pool` of senders shares them: each gets its sender
/// when it is sent (issue 79).
pub async fn seed_pooled_campaign(
    db: &Db,
    email: &str,
    limit: i64,
    recipients: usize,
    pool: &[i64],
    body: &str,
) -> (i64, i64, Vec<i64>) {
    seed_messages(db, email, limit, recipients, (None, pool), body).await
}

/// A campaign's first emails through one sender (None: the outbox), or shared by a pool when one is given.
async fn seed_messages(
    db: &Db,
    email: &str,
    limit: i64,
    recipients: usize,
    (config_id, pool): (Option<i64>, &[i64]),
    body: &str,
) -> (i64, i64, Vec<i64>) {
    let now = SystemClock.now_ms();
    let (user_id, campaign, template) = account_with_campaign(db, email, limit, body, now).await;
    if !pool.is_empty() {
        db.sending()
            .set_campaign_pool(campaign, pool)
            .await
            .expect("the pool");
    }
    let addresses: Vec<String> = (0..recipients)
        .map(|index| format!("owner{index}@cafe{index}.example"))
        .collect();
    let mut ids = Vec::with_capacity(recipients);
    let outgoing = Outgoing {
        user_id,
        campaign_id: Some(campaign),
        config_id,
        pooled: !pool.is_empty(),
        kind: MessageKind::First,
    };
    // Distinct steps keep the (campaign, business, kind, step) key apart without business rows.
    for chunk in (0..recipients).collect::<Vec<_>>().chunks(5_000) {
        let letters: Vec<Letter> = chunk
            .iter()
            .map(|&index| Letter {
                to_email: &addresses[index],
                template_id: Some(template),
                step: index as i32,
                ..Letter::default()
            })
            .collect();
        ids.extend(outgoing.write(db, &letters, now).await.expect("queued"));
    }
    (user_id, campaign, ids)
}

/// `count` messages of a new campaign of Ada's, claimed under the lease "gone", which ran out long ago: every
/// hand-over recorded for them shows among the interrupted sends. Returns their ids.
pub async fn claimed_by_gone_worker(db: &Db, count: usize) -> Vec<i64> {
    let (user_id, _, ids) =
        seed_campaign(db, "ada@example.org", 100, count, None, "<p>Hi</p>").await;
    let limits = crate::sending::messages::Limits {
        monthly_limit: 100,
        daily_cap: 100,
    };
    db.sending()
        .claim_messages(user_id, None, &ids, limits, "gone", 0)
        .await
        .expect("claimed");
    ids
}

/// A campaign whose first emails were sent three days ago, with a one-day follow-up.
#[derive(Debug, Clone, Copy)]
pub struct SeededFollowUps {
    pub user_id: i64,
    pub campaign_id: i64,
    pub template_id: i64,
}

/// Seeds `sent` first emails of a new campaign of `email` (to businesses `owner{i}@cafe{i}.example`, through
/// `config_id`), sent three days ago; the first `opened` of them were opened by a person two days ago, so their
/// follow-up (one day after an open) is due. Written by SQL in bulk (a million rows take seconds). The monthly
/// counter is not charged for them: they were sent before the window a test looks at.
pub async fn seed_follow_ups(
    db: &Db,
    email: &str,
    limit: i64,
    sent: usize,
    opened: usize,
    config_id: Option<i64>,
) -> SeededFollowUps {
    let now = SystemClock.now_ms();
    let (user_id, campaign_id, template_id) =
        account_with_campaign(db, email, limit, "<p>Hello [business name]</p>", now).await;
    let follow_up = FollowUpContent {
        name: "Follow-up Email #1".into(),
        subject: "Checking in, {{businessName | friend}}".into(),
        body: "<p>Any thoughts?</p>".into(),
        objective: "Lead Generation".into(),
        tone: "professional".into(),
        sequence_number: 1,
        delay_days: 1,
        is_active: true,
    };
    db.campaigns()
        .insert_follow_up(template_id, user_id, &follow_up, now)
        .await
        .expect("the follow-up");
    let (sent_at, opened_at) = (now - 3 * DAY_MS, now - 2 * DAY_MS);
    // The dialects count to $3 and write hexadecimal differently.
    let (businesses, messages) = match db {
        Db::Postgres(_) => (BUSINESSES_PG, MESSAGES_PG),
        Db::Sqlite { .. } => (BUSINESSES_SQLITE, MESSAGES_SQLITE),
    };
    let provider = if config_id.is_some() {
        "smtp"
    } else {
        "outbox"
    };
    crate::on_writer!(db, pool => sqlx::query(businesses).bind(user_id).bind(sent_at).bind(sent as i64)
        .execute(pool).await.map(|_| ()))
    .expect("seeded businesses");
    crate::on_writer!(db, pool => sqlx::query(messages).bind(user_id).bind(sent_at).bind(campaign_id)
        .bind(template_id).bind(config_id).bind(opened_at).bind(opened as i64).bind(provider).execute(pool).await.map(|_| ()))
    .expect("seeded messages");
    // Their follow-ups' due times, as the open's trigger would have written them.
    db.followups()
        .reschedule_follow_ups(template_id)
        .await
        .expect("the follow-ups' due times");
    SeededFollowUps {
        user_id,
        campaign_id,
        template_id,
    }
}

/// `$3` businesses of user `$1`, found at `$2`.
const BUSINESSES_PG: &str = "insert into businesses (user_id, name, email, provider, found_at, name_address_key, created_at)
    select $1, 'Cafe ' || i, 'owner' || i || '@cafe' || i || '.example', 'import', $2, 'cafe ' || i, $2
    from generate_series(1, $3) as i";
const BUSINESSES_SQLITE: &str = "insert into businesses (user_id, name, email, provider, found_at, name_address_key, created_at)
    with recursive n(i) as (select 1 union all select i + 1 from n where i < $3)
    select $1, 'Cafe ' || i, 'owner' || i || '@cafe' || i || '.example', 'import', $2, 'cafe ' || i, $2 from n";
/// One first email, sent at `$2` through `$5` (`$8`), per business of user `$1`; those of the `$7` lowest ids were
/// opened at `$6`. Their tokens are written as the app writes them (the time, then random digits), so that the
/// token and Message-ID indexes of the new messages a benchmark writes are as large and as ordered as they would be.
macro_rules! seeded_messages {
    ($token:literal) => {
        concat!(
            "insert into sent_emails (user_id, to_email, subject, status, sent_at, created_at, campaign_id,
                template_id, business_id, step, config_id, provider, token, opened_at, is_test)
            select b.user_id, b.email, 'Fresh bread', 'sent', $2, $2, $3, $4, b.id, 0, $5, $8, ",
            $token,
            ", case when b.id < (select min(id) from businesses where user_id = $1) + $7 then $6 end, false
            from businesses b where b.user_id = $1"
        )
    };
}
const MESSAGES_PG: &str = seeded_messages!("lpad(to_hex($2), 12, '0') || md5(random()::text)");
const MESSAGES_SQLITE: &str = seeded_messages!("printf('%012x', $2) || lower(hex(randomblob(16)))");

/// `email`'s account (created on the way) with the sender `config`: (user id, sender id).
pub async fn seed_sender(
    db: &Db,
    email: &str,
    config: &crate::sending::senders::NewEmailConfig,
) -> (i64, i64) {
    let now = SystemClock.now_ms();
    let user = db
        .accounts()
        .upsert_user_on_sign_in(email, None, None, now)
        .await
        .expect("the account");
    let config_id = db
        .sending()
        .insert_email_config(user.id, config, now)
        .await
        .expect("the sender");
    (user.id, config_id)
}
