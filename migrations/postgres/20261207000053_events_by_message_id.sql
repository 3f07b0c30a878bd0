-- Tracking events name their message by its id as well as by the token their link carried, and the events' index is
-- of ids: an entry of the token's index (44 bytes of text, compared in the database's collation, at a place its
-- random token picked) took about a third of an event's insert, and an open of any of 2,000 messages a thousand
-- times over put one on a page of its own (docs/benchmarks.md, Tracking). An event whose token names no message
-- (its message deleted since) keeps no id. The triggers find a batch's messages by primary key.
alter table email_events add column message bigint;
update email_events e set message = m.id from sent_emails m where m.token = e.token;
create index email_events_message on email_events (message);
drop index email_events_token;

create or replace function email_events_first_times() returns trigger language plpgsql as $$
begin
    with firsts as (
        select message, min(occurred_at) as first_open, min(occurred_at) filter (where kind = 'click') as first_click
        from new_rows
        where kind = 'click' or (kind = 'open' and not is_machine)
        group by message
    ), locked as (
        select m.id, f.first_open, f.first_click
        from sent_emails m join firsts f on f.message = m.id
        where m.opened_at is null or m.opened_at > f.first_open or m.status in ('sent', 'delivered')
            or (f.first_click is not null and (m.clicked_at is null or m.clicked_at > f.first_click))
        order by m.id
        for update of m
    )
    update sent_emails m set
        opened_at = least(m.opened_at, l.first_open),
        clicked_at = least(m.clicked_at, l.first_click),
        status = case when m.status in ('sent', 'delivered') then 'opened' else m.status end
    from locked l
    where m.id = l.id;
    return null;
end $$;
alter function email_events_first_times() set enable_seqscan = off;

create or replace function campaign_daily_stats_events() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, e.day, sum(e.human_opens), sum(e.machine_opens), sum(e.clicks)
    from (
        select message, occurred_at / 86400000 as day,
            count(*) filter (where kind = 'open' and not is_machine) as human_opens,
            count(*) filter (where kind = 'open' and is_machine) as machine_opens,
            count(*) filter (where kind = 'click') as clicks
        from new_rows
        where kind in ('open', 'click')
        group by 1, 2
    ) e join sent_emails m on m.id = e.message
    where m.campaign_id is not null and not m.is_test and m.kind <> 'answer'
    group by 1, 2
    order by 1, 2
    on conflict (campaign_id, day) do update set human_opens = s.human_opens + excluded.human_opens,
        machine_opens = s.machine_opens + excluded.machine_opens, clicks = s.clicks + excluded.clicks;
    return null;
end $$;
alter function campaign_daily_stats_events() set enable_seqscan = off;
