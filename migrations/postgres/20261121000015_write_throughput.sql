-- Two changes to the counting triggers, for sending and tracking throughput:
-- * A claim (queued → sending) changes no counter, yet it ran the per-day and per-contact triggers for every claimed
--   batch; both now return at once for a statement that only claimed.
-- * Tracking events are written by several batches at once: every upsert now takes its rows' locks in key order, so
--   two batches that touch the same counters or contacts wait for each other instead of deadlocking.
create or replace function campaign_daily_stats_changes() returns trigger language plpgsql as $$
begin
    -- A claim (queued → sending) changes no counter.
    if not exists (select 1 from new_rows where status <> 'sending') then
        return null;
    end if;
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
    order by 1, 2
    on conflict (campaign_id, day) do update set sent = s.sent + excluded.sent, failed = s.failed + excluded.failed,
        skipped = s.skipped + excluded.skipped, delivered = s.delivered + excluded.delivered,
        opened = s.opened + excluded.opened, clicked = s.clicked + excluded.clicked,
        replied = s.replied + excluded.replied, bounced = s.bounced + excluded.bounced, spam = s.spam + excluded.spam,
        unsubscribed = s.unsubscribed + excluded.unsubscribed;
    return null;
end $$;
create or replace function contacts_on_update() returns trigger language plpgsql as $$
begin
    -- A claim (queued → sending) changes no counter.
    if not exists (select 1 from new_rows where status <> 'sending') then
        return null;
    end if;
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
    order by n.user_id, n.to_email
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
create or replace function campaign_daily_stats_events() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, e.occurred_at / 86400000,
        count(*) filter (where e.kind = 'open' and not e.is_machine),
        count(*) filter (where e.kind = 'open' and e.is_machine),
        count(*) filter (where e.kind = 'click')
    from new_rows e join sent_emails m on m.token = e.token
    where e.kind in ('open', 'click') and m.campaign_id is not null and not m.is_test
    group by 1, 2
    order by 1, 2
    on conflict (campaign_id, day) do update set human_opens = s.human_opens + excluded.human_opens,
        machine_opens = s.machine_opens + excluded.machine_opens, clicks = s.clicks + excluded.clicks;
    return null;
end $$;
