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
create function campaign_daily_stats_messages() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, messages)
    select n.campaign_id, n.created_at / 86400000, count(*)
    from new_rows n where n.campaign_id is not null and not n.is_test
    group by 1, 2
    on conflict (campaign_id, day) do update set messages = s.messages + excluded.messages;
    return null;
end $$;
create trigger sent_emails_daily_messages after insert on sent_emails
    referencing new table as new_rows for each statement execute function campaign_daily_stats_messages();

-- A state or time a message takes for the first time (statement-level, so a batch of sends is one upsert per day).
create function campaign_daily_stats_changes() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, sent, failed, skipped, delivered, opened, clicked,
        replied, bounced, spam, unsubscribed)
    select n.campaign_id, f.at / 86400000,
        count(*) filter (where f.metric = 'sent'), count(*) filter (where f.metric = 'failed'),
        count(*) filter (where f.metric = 'skipped'), count(*) filter (where f.metric = 'delivered'),
        count(*) filter (where f.metric = 'opened'), count(*) filter (where f.metric = 'clicked'),
        count(*) filter (where f.metric = 'replied'), count(*) filter (where f.metric = 'bounced'),
        count(*) filter (where f.metric = 'spam'), count(*) filter (where f.metric = 'unsubscribed')
    from new_rows n join old_rows o on o.id = n.id
    cross join lateral (values
        ('sent', case when o.sent_at is null then n.sent_at end),
        ('failed', case when n.status = 'failed' and o.status <> 'failed'
            then coalesce(n.claimed_at, o.claimed_at, n.created_at) end),
        ('skipped', case when n.status = 'skipped' and o.status <> 'skipped' then n.created_at end),
        ('delivered', case when o.delivered_at is null then n.delivered_at end),
        ('opened', case when o.opened_at is null then n.opened_at end),
        ('clicked', case when o.clicked_at is null then n.clicked_at end),
        ('replied', case when o.replied_at is null then n.replied_at end),
        ('bounced', case when o.bounced_at is null then n.bounced_at end),
        ('spam', case when o.spam_reported_at is null then n.spam_reported_at end),
        ('unsubscribed', case when o.unsubscribed_at is null then n.unsubscribed_at end)
    ) as f (metric, at)
    where f.at is not null and n.campaign_id is not null and not n.is_test
    group by 1, 2
    on conflict (campaign_id, day) do update set sent = s.sent + excluded.sent, failed = s.failed + excluded.failed,
        skipped = s.skipped + excluded.skipped, delivered = s.delivered + excluded.delivered,
        opened = s.opened + excluded.opened, clicked = s.clicked + excluded.clicked,
        replied = s.replied + excluded.replied, bounced = s.bounced + excluded.bounced, spam = s.spam + excluded.spam,
        unsubscribed = s.unsubscribed + excluded.unsubscribed;
    return null;
end $$;
create trigger sent_emails_daily_changes after update on sent_emails
    referencing old table as old_rows new table as new_rows for each statement
    execute function campaign_daily_stats_changes();

-- Open and click events, found by their message's token.
create function campaign_daily_stats_events() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, e.occurred_at / 86400000,
        count(*) filter (where e.kind = 'open' and not e.is_machine),
        count(*) filter (where e.kind = 'open' and e.is_machine),
        count(*) filter (where e.kind = 'click')
    from new_rows e join sent_emails m on m.token = e.token
    where e.kind in ('open', 'click') and m.campaign_id is not null and not m.is_test
    group by 1, 2
    on conflict (campaign_id, day) do update set human_opens = s.human_opens + excluded.human_opens,
        machine_opens = s.machine_opens + excluded.machine_opens, clicks = s.clicks + excluded.clicks;
    return null;
end $$;
create trigger email_events_daily after insert on email_events
    referencing new table as new_rows for each statement execute function campaign_daily_stats_events();

-- Counters for what happened before this migration.
insert into campaign_daily_stats (campaign_id, day, messages, sent, failed, skipped, delivered, opened, clicked,
    replied, bounced, spam, unsubscribed)
select m.campaign_id, f.at / 86400000,
    count(*) filter (where f.metric = 'messages'), count(*) filter (where f.metric = 'sent'),
    count(*) filter (where f.metric = 'failed'), count(*) filter (where f.metric = 'skipped'),
    count(*) filter (where f.metric = 'delivered'), count(*) filter (where f.metric = 'opened'),
    count(*) filter (where f.metric = 'clicked'), count(*) filter (where f.metric = 'replied'),
    count(*) filter (where f.metric = 'bounced'), count(*) filter (where f.metric = 'spam'),
    count(*) filter (where f.metric = 'unsubscribed')
from sent_emails m
cross join lateral (values
    ('messages', m.created_at),
    ('sent', m.sent_at),
    ('failed', case when m.status = 'failed' then coalesce(m.claimed_at, m.created_at) end),
    ('skipped', case when m.status = 'skipped' then m.created_at end),
    ('delivered', m.delivered_at), ('opened', m.opened_at), ('clicked', m.clicked_at), ('replied', m.replied_at),
    ('bounced', m.bounced_at), ('spam', m.spam_reported_at), ('unsubscribed', m.unsubscribed_at)
) as f (metric, at)
where f.at is not null and m.campaign_id is not null and not m.is_test
group by 1, 2;
insert into campaign_daily_stats as s (campaign_id, day, human_opens, machine_opens, clicks)
select m.campaign_id, e.occurred_at / 86400000,
    count(*) filter (where e.kind = 'open' and not e.is_machine),
    count(*) filter (where e.kind = 'open' and e.is_machine),
    count(*) filter (where e.kind = 'click')
from email_events e join sent_emails m on m.token = e.token
where e.kind in ('open', 'click') and m.campaign_id is not null and not m.is_test
group by 1, 2
on conflict (campaign_id, day) do update set human_opens = excluded.human_opens,
    machine_opens = excluded.machine_opens, clicks = excluded.clicks;

-- The user's own notes on a contact (A §1: interactions, notes), by the contact's address.
create table contact_notes (
    id bigint generated always as identity primary key,
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
