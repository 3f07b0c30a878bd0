-- Analytics read per-(campaign, day) counters rather than aggregating raw rows, so they stay fast at millions of
-- messages. Triggers keep the counters in the same transaction as the write that changes a message or records an
-- event, so no write path can forget them. Days are UTC days since 1970-01-01; each fact counts on the day it
-- happened (a message sent on Monday and opened on Tuesday adds a send to Monday and an open to Tuesday).
-- Test sends are not campaign mail and count nowhere.
create table campaign_daily_stats (
    campaign_id bigint not null references campaigns (id) on delete cascade,
    day bigint not null,
    messages bigint not null default 0,
    sent bigint not null default 0,
    failed bigint not null default 0,
    skipped bigint not null default 0,
    delivered bigint not null default 0,
    opened bigint not null default 0,
    clicked bigint not null default 0,
    replied bigint not null default 0,
    bounced bigint not null default 0,
    spam bigint not null default 0,
    unsubscribed bigint not null default 0,
    -- Every open and click event (a message opened three times adds three opens), human and machine opens apart.
    human_opens bigint not null default 0,
    machine_opens bigint not null default 0,
    clicks bigint not null default 0,
    primary key (campaign_id, day)
);

-- Messages created (queued at launch): one per recipient and step.
create trigger sent_emails_daily_messages after insert on sent_emails
when new.campaign_id is not null and not new.is_test
begin
    insert into campaign_daily_stats (campaign_id, day, messages) values (new.campaign_id, new.created_at / 86400000, 1)
    on conflict (campaign_id, day) do update set messages = messages + 1;
end;

-- A state or time a message takes for the first time.
create trigger sent_emails_daily_changes after update on sent_emails
when new.campaign_id is not null and not new.is_test
begin
    insert into campaign_daily_stats (campaign_id, day, sent) select new.campaign_id, new.sent_at / 86400000, 1
        where old.sent_at is null and new.sent_at is not null
        on conflict (campaign_id, day) do update set sent = sent + 1;
    insert into campaign_daily_stats (campaign_id, day, failed) select new.campaign_id, coalesce(new.claimed_at, old.claimed_at, new.created_at) / 86400000, 1
        where new.status = 'failed' and old.status <> 'failed'
        on conflict (campaign_id, day) do update set failed = failed + 1;
    insert into campaign_daily_stats (campaign_id, day, skipped) select new.campaign_id, new.created_at / 86400000, 1
        where new.status = 'skipped' and old.status <> 'skipped'
        on conflict (campaign_id, day) do update set skipped = skipped + 1;
    insert into campaign_daily_stats (campaign_id, day, delivered) select new.campaign_id, new.delivered_at / 86400000, 1
        where old.delivered_at is null and new.delivered_at is not null
        on conflict (campaign_id, day) do update set delivered = delivered + 1;
    insert into campaign_daily_stats (campaign_id, day, opened) select new.campaign_id, new.opened_at / 86400000, 1
        where old.opened_at is null and new.opened_at is not null
        on conflict (campaign_id, day) do update set opened = opened + 1;
    insert into campaign_daily_stats (campaign_id, day, clicked) select new.campaign_id, new.clicked_at / 86400000, 1
        where old.clicked_at is null and new.clicked_at is not null
        on conflict (campaign_id, day) do update set clicked = clicked + 1;
    insert into campaign_daily_stats (campaign_id, day, replied) select new.campaign_id, new.replied_at / 86400000, 1
        where old.replied_at is null and new.replied_at is not null
        on conflict (campaign_id, day) do update set replied = replied + 1;
    insert into campaign_daily_stats (campaign_id, day, bounced) select new.campaign_id, new.bounced_at / 86400000, 1
        where old.bounced_at is null and new.bounced_at is not null
        on conflict (campaign_id, day) do update set bounced = bounced + 1;
    insert into campaign_daily_stats (campaign_id, day, spam) select new.campaign_id, new.spam_reported_at / 86400000, 1
        where old.spam_reported_at is null and new.spam_reported_at is not null
        on conflict (campaign_id, day) do update set spam = spam + 1;
    insert into campaign_daily_stats (campaign_id, day, unsubscribed) select new.campaign_id, new.unsubscribed_at / 86400000, 1
        where old.unsubscribed_at is null and new.unsubscribed_at is not null
        on conflict (campaign_id, day) do update set unsubscribed = unsubscribed + 1;
end;

-- Open and click events, found by their message's token.
create trigger email_events_daily after insert on email_events
when new.kind in ('open', 'click')
begin
    insert into campaign_daily_stats (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, new.occurred_at / 86400000, new.kind = 'open' and not new.is_machine,
        new.kind = 'open' and new.is_machine, new.kind = 'click'
    from sent_emails m where m.token = new.token and m.campaign_id is not null and not m.is_test
    on conflict (campaign_id, day) do update set human_opens = human_opens + excluded.human_opens,
        machine_opens = machine_opens + excluded.machine_opens, clicks = clicks + excluded.clicks;
end;

-- Counters for what happened before this migration.
insert into campaign_daily_stats (campaign_id, day, messages, sent, failed, skipped, delivered, opened, clicked,
    replied, bounced, spam, unsubscribed)
select campaign_id, day, sum(metric = 'messages'), sum(metric = 'sent'), sum(metric = 'failed'),
    sum(metric = 'skipped'), sum(metric = 'delivered'), sum(metric = 'opened'), sum(metric = 'clicked'),
    sum(metric = 'replied'), sum(metric = 'bounced'), sum(metric = 'spam'), sum(metric = 'unsubscribed')
from (
    select campaign_id, (created_at) / 86400000 as day, 'messages' as metric from sent_emails
    where (created_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (sent_at) / 86400000 as day, 'sent' as metric from sent_emails
    where (sent_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (case when status = 'failed' then coalesce(claimed_at, created_at) end) / 86400000 as day, 'failed' as metric from sent_emails
    where (case when status = 'failed' then coalesce(claimed_at, created_at) end) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (case when status = 'skipped' then created_at end) / 86400000 as day, 'skipped' as metric from sent_emails
    where (case when status = 'skipped' then created_at end) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (delivered_at) / 86400000 as day, 'delivered' as metric from sent_emails
    where (delivered_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (opened_at) / 86400000 as day, 'opened' as metric from sent_emails
    where (opened_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (clicked_at) / 86400000 as day, 'clicked' as metric from sent_emails
    where (clicked_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (replied_at) / 86400000 as day, 'replied' as metric from sent_emails
    where (replied_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (bounced_at) / 86400000 as day, 'bounced' as metric from sent_emails
    where (bounced_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (spam_reported_at) / 86400000 as day, 'spam' as metric from sent_emails
    where (spam_reported_at) is not null and campaign_id is not null and not is_test
    union all
    select campaign_id, (unsubscribed_at) / 86400000 as day, 'unsubscribed' as metric from sent_emails
    where (unsubscribed_at) is not null and campaign_id is not null and not is_test
) as facts
group by campaign_id, day;
insert into campaign_daily_stats (campaign_id, day, human_opens, machine_opens, clicks)
select m.campaign_id, e.occurred_at / 86400000, sum(e.kind = 'open' and not e.is_machine),
    sum(e.kind = 'open' and e.is_machine), sum(e.kind = 'click')
from email_events e join sent_emails m on m.token = e.token
where e.kind in ('open', 'click') and m.campaign_id is not null and not m.is_test
group by m.campaign_id, e.occurred_at / 86400000
on conflict (campaign_id, day) do update set human_opens = excluded.human_opens,
    machine_opens = excluded.machine_opens, clicks = excluded.clicks;

-- Each user's contacts, kept like the campaign counters: everyone a message went to (or failed for), with the first
-- time each thing happened, so the contacts screen reads one row per contact rather than all their messages.
create table contacts (
    user_id bigint not null references users (id) on delete cascade,
    email text not null,
    -- The latest business the address belonged to, for its name and details.
    business_id bigint references businesses (id) on delete set null,
    messages bigint not null default 0,
    sent bigint not null default 0,
    last_sent_at bigint,
    delivered_at bigint,
    opened_at bigint,
    clicked_at bigint,
    replied_at bigint,
    bounced_at bigint,
    spam_reported_at bigint,
    unsubscribed_at bigint,
    last_activity_at bigint not null,
    primary key (user_id, email)
);
create index contacts_user_activity on contacts (user_id, last_activity_at);

-- A message that left the queue (sent, failed or bounced; messages are written queued or skipped, and skipped ones
-- never count) counts once for its contact, and every first time is kept (SQLite's two-argument min and max are
-- null when either is, hence the coalesces).
create trigger sent_emails_contacts_update after update on sent_emails
when not new.is_test and new.status not in ('queued', 'sending', 'skipped')
begin
    insert into contacts (user_id, email, business_id, messages, sent, last_sent_at, delivered_at, opened_at,
        clicked_at, replied_at, bounced_at, spam_reported_at, unsubscribed_at, last_activity_at)
    values (new.user_id, new.to_email, new.business_id, old.status in ('queued', 'sending'),
        old.sent_at is null and new.sent_at is not null, new.sent_at, new.delivered_at,
        new.opened_at, new.clicked_at, new.replied_at, new.bounced_at, new.spam_reported_at, new.unsubscribed_at,
        coalesce(new.sent_at, new.created_at))
    on conflict (user_id, email) do update set
        business_id = coalesce(excluded.business_id, business_id),
        messages = messages + excluded.messages,
        sent = sent + excluded.sent,
        last_sent_at = max(coalesce(last_sent_at, excluded.last_sent_at), coalesce(excluded.last_sent_at, last_sent_at)),
        delivered_at = min(coalesce(delivered_at, excluded.delivered_at), coalesce(excluded.delivered_at, delivered_at)),
        opened_at = min(coalesce(opened_at, excluded.opened_at), coalesce(excluded.opened_at, opened_at)),
        clicked_at = min(coalesce(clicked_at, excluded.clicked_at), coalesce(excluded.clicked_at, clicked_at)),
        replied_at = min(coalesce(replied_at, excluded.replied_at), coalesce(excluded.replied_at, replied_at)),
        bounced_at = min(coalesce(bounced_at, excluded.bounced_at), coalesce(excluded.bounced_at, bounced_at)),
        spam_reported_at = min(coalesce(spam_reported_at, excluded.spam_reported_at), coalesce(excluded.spam_reported_at, spam_reported_at)),
        unsubscribed_at = min(coalesce(unsubscribed_at, excluded.unsubscribed_at), coalesce(excluded.unsubscribed_at, unsubscribed_at)),
        last_activity_at = max(last_activity_at, excluded.last_activity_at);
end;
insert into contacts (user_id, email, business_id, messages, sent, last_sent_at, delivered_at, opened_at, clicked_at,
    replied_at, bounced_at, spam_reported_at, unsubscribed_at, last_activity_at)
select user_id, to_email, max(business_id), count(*), count(sent_at), max(sent_at), min(delivered_at), min(opened_at),
    min(clicked_at), min(replied_at), min(bounced_at), min(spam_reported_at), min(unsubscribed_at),
    max(coalesce(sent_at, created_at))
from sent_emails where not is_test and status not in ('queued', 'sending', 'skipped')
group by user_id, to_email;

-- The user's own notes on a contact (A §1: interactions, notes), by the contact's address.
create table contact_notes (
    id integer primary key autoincrement,
    user_id bigint not null references users (id) on delete cascade,
    email text not null,
    body text not null,
    created_at bigint not null,
    updated_at bigint not null
);
create index contact_notes_user_email on contact_notes (user_id, email);
-- A contact's history lists the replies and other mail received from the address.
create index inbound_messages_user_from on inbound_messages (user_id, from_email);
-- A campaign's messages in order, a page at a time.
create index sent_emails_campaign_id on sent_emails (campaign_id, id);
