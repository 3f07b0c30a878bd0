-- The day's opens and clicks of a batch of tracking events are counted by message before their messages are looked
-- up: the trigger joined every event with `sent_emails` (an index probe an event, where a message opened a hundred
-- times in a batch took a hundred), and, planned on a connection's first batch while `sent_emails` was small, that
-- join read the whole table for every batch once it had grown (core/tests/core/send_plans.rs), as the first opens'
-- trigger did before migration 46. Now each message of a batch is looked up once, through the token's index only.
create or replace function campaign_daily_stats_events() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, e.day, sum(e.human_opens), sum(e.machine_opens), sum(e.clicks)
    from (
        select token, occurred_at / 86400000 as day,
            count(*) filter (where kind = 'open' and not is_machine) as human_opens,
            count(*) filter (where kind = 'open' and is_machine) as machine_opens,
            count(*) filter (where kind = 'click') as clicks
        from new_rows
        where kind in ('open', 'click')
        group by 1, 2
    ) e join sent_emails m on m.token = e.token
    where m.campaign_id is not null and not m.is_test and m.kind <> 'answer'
    group by 1, 2
    order by 1, 2
    on conflict (campaign_id, day) do update set human_opens = s.human_opens + excluded.human_opens,
        machine_opens = s.machine_opens + excluded.machine_opens, clicks = s.clicks + excluded.clicks;
    return null;
end $$;
alter function campaign_daily_stats_events() set enable_seqscan = off;
