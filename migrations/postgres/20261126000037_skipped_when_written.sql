-- A message written as skipped (a business without an address) was counted among a campaign's messages but never as
-- skipped: the skipped counter moved only when a queued message became skipped. The campaign's details then showed it
-- as queued, while its progress, which reads the messages, said skipped (issue 33.3). The insert trigger counts it now,
-- and every campaign's skipped counter is worked out again from its messages.
create or replace function campaign_daily_stats_messages() returns trigger language plpgsql as $$
begin
    insert into campaign_daily_stats as s (campaign_id, day, messages, skipped)
    select n.campaign_id, n.created_at / 86400000, count(*), count(*) filter (where n.status = 'skipped')
    from new_rows n where n.campaign_id is not null and not n.is_test and n.kind <> 'answer'
    group by 1, 2
    on conflict (campaign_id, day) do update set messages = s.messages + excluded.messages,
        skipped = s.skipped + excluded.skipped;
    return null;
end $$;

update campaign_daily_stats s set skipped = (select count(*) from sent_emails m
    where m.campaign_id = s.campaign_id and m.created_at / 86400000 = s.day
        and m.status = 'skipped' and not m.is_test and m.kind <> 'answer');
