-- A message says what it is to its recipient (issues 30 and 31): its first email, follow-up n, answer n to the
-- prospect's replies, or a test send. Answers were steps 100 and above, so they showed as "Follow-up #100" and counted
-- as campaign emails (halving a campaign's open rate); now they are numbered among answers, from 1.
alter table sent_emails add column kind text not null default 'first';
-- Only the rows that are no first email (the column's default) are written; the counting triggers see no change.
update sent_emails set kind = case when is_test then 'test' when step >= 100 then 'answer' else 'follow_up' end
where is_test or step > 0;
-- One message per (campaign, business, kind, step).
drop index sent_emails_campaign_business_step;
update sent_emails set step = step - 99 where kind = 'answer';
create unique index sent_emails_campaign_business_kind_step on sent_emails (campaign_id, business_id, kind, step);

-- Answers left the campaigns' daily figures: they have figures of their own.
update campaign_daily_stats set
    messages = messages - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.created_at / 86400000 = campaign_daily_stats.day),
    sent = sent - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.sent_at / 86400000 = campaign_daily_stats.day),
    failed = failed - (select count(*) from sent_emails m where m.kind = 'answer' and m.status = 'failed'
        and m.campaign_id = campaign_daily_stats.campaign_id
        and coalesce(m.claimed_at, m.created_at) / 86400000 = campaign_daily_stats.day),
    skipped = skipped - (select count(*) from sent_emails m where m.kind = 'answer' and m.status = 'skipped'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.created_at / 86400000 = campaign_daily_stats.day),
    delivered = delivered - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.delivered_at / 86400000 = campaign_daily_stats.day),
    opened = opened - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.opened_at / 86400000 = campaign_daily_stats.day),
    clicked = clicked - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.clicked_at / 86400000 = campaign_daily_stats.day),
    replied = replied - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.replied_at / 86400000 = campaign_daily_stats.day),
    bounced = bounced - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.bounced_at / 86400000 = campaign_daily_stats.day),
    spam = spam - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id and m.spam_reported_at / 86400000 = campaign_daily_stats.day),
    unsubscribed = unsubscribed - (select count(*) from sent_emails m where m.kind = 'answer'
        and m.campaign_id = campaign_daily_stats.campaign_id
        and m.unsubscribed_at / 86400000 = campaign_daily_stats.day),
    human_opens = human_opens - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'open' and not e.is_machine
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day),
    machine_opens = machine_opens - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'open' and e.is_machine
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day),
    clicks = clicks - (select count(*) from email_events e join sent_emails m on m.token = e.token
        where m.kind = 'answer' and e.kind = 'click'
        and m.campaign_id = campaign_daily_stats.campaign_id and e.occurred_at / 86400000 = campaign_daily_stats.day)
where campaign_id in (select campaign_id from sent_emails where kind = 'answer');

-- The daily figures count campaign mail only: no test send, and no answer.
create or replace function campaign_daily_stats_messages() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, messages)
    select n.campaign_id, n.created_at / 86400000, count(*)
    from new_rows n where n.campaign_id is not null and not n.is_test and n.kind <> 'answer'
    group by 1, 2
    on conflict (campaign_id, day) do update set messages = s.messages + excluded.messages;
    return null;
end $$;

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
    where f.at is not null and n.campaign_id is not null and not n.is_test and n.kind <> 'answer'
    group by 1, 2
    order by 1, 2
    on conflict (campaign_id, day) do update set sent = s.sent + excluded.sent, failed = s.failed + excluded.failed,
        skipped = s.skipped + excluded.skipped, delivered = s.delivered + excluded.delivered,
        opened = s.opened + excluded.opened, clicked = s.clicked + excluded.clicked,
        replied = s.replied + excluded.replied, bounced = s.bounced + excluded.bounced, spam = s.spam + excluded.spam,
        unsubscribed = s.unsubscribed + excluded.unsubscribed;
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
    where e.kind in ('open', 'click') and m.campaign_id is not null and not m.is_test and m.kind <> 'answer'
    group by 1, 2
    order by 1, 2
    on conflict (campaign_id, day) do update set human_opens = s.human_opens + excluded.human_opens,
        machine_opens = s.machine_opens + excluded.machine_opens, clicks = s.clicks + excluded.clicks;
    return null;
end $$;
