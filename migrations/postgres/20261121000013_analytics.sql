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

-- Messages that left the queue (sent, failed or bounced; messages are written queued or skipped, and skipped ones
-- never count), grouped per contact: a message that just left counts once, and every first time is kept (greatest
-- and least pass over nulls).
create function contacts_on_update() returns trigger language plpgsql as $$
begin
    insert into contacts as c (user_id, email, business_id, messages, sent, last_sent_at, delivered_at, opened_at,
        clicked_at, replied_at, bounced_at, spam_reported_at, unsubscribed_at, last_activity_at)
    select n.user_id, n.to_email, max(n.business_id),
        count(*) filter (where o.status in ('queued', 'sending')),
        count(*) filter (where n.sent_at is not null and o.sent_at is null),
        max(n.sent_at), min(n.delivered_at), min(n.opened_at), min(n.clicked_at), min(n.replied_at),
        min(n.bounced_at), min(n.spam_reported_at), min(n.unsubscribed_at), max(coalesce(n.sent_at, n.created_at))
    from new_rows n join old_rows o on o.id = n.id
    where not n.is_test and n.status not in ('queued', 'sending', 'skipped')
    group by n.user_id, n.to_email
    on conflict (user_id, email) do update set business_id = coalesce(excluded.business_id, c.business_id),
        messages = c.messages + excluded.messages, sent = c.sent + excluded.sent,
        last_sent_at = greatest(c.last_sent_at, excluded.last_sent_at),
        delivered_at = least(c.delivered_at, excluded.delivered_at), opened_at = least(c.opened_at, excluded.opened_at),
        clicked_at = least(c.clicked_at, excluded.clicked_at), replied_at = least(c.replied_at, excluded.replied_at),
        bounced_at = least(c.bounced_at, excluded.bounced_at),
        spam_reported_at = least(c.spam_reported_at, excluded.spam_reported_at),
        unsubscribed_at = least(c.unsubscribed_at, excluded.unsubscribed_at),
        last_activity_at = greatest(c.last_activity_at, excluded.last_activity_at);
    return null;
end $$;
create trigger sent_emails_contacts_update after update on sent_emails
    referencing old table as old_rows new table as new_rows for each statement execute function contacts_on_update();
insert into contacts (user_id, email, business_id, messages, sent, last_sent_at, delivered_at, opened_at, clicked_at,
    replied_at, bounced_at, spam_reported_at, unsubscribed_at, last_activity_at)
select user_id, to_email, max(business_id), count(*), count(sent_at), max(sent_at), min(delivered_at), min(opened_at),
    min(clicked_at), min(replied_at), min(bounced_at), min(spam_reported_at), min(unsubscribed_at),
    max(coalesce(sent_at, created_at))
from sent_emails where not is_test and status not in ('queued', 'sending', 'skipped')
group by user_id, to_email;

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
