-- A message written as skipped (a business without an address) was counted among a campaign's messages but never as
-- skipped: the skipped counter moved only when a queued message became skipped. The campaign's details then showed it
-- as queued, while its progress, which reads the messages, said skipped (issue 33.3). The insert trigger counts it now,
-- and every campaign's skipped counter is worked out again from its messages.
drop trigger sent_emails_daily_messages;
create trigger sent_emails_daily_messages after insert on sent_emails
when new.campaign_id is not null and not new.is_test and new.kind <> 'answer'
begin
    insert into campaign_daily_stats (campaign_id, day, messages, skipped)
    values (new.campaign_id, new.created_at / 86400000, 1, new.status = 'skipped')
    on conflict (campaign_id, day) do update set messages = messages + 1, skipped = skipped + excluded.skipped;
end;

update campaign_daily_stats set skipped = (select count(*) from sent_emails m
    where m.campaign_id = campaign_daily_stats.campaign_id and m.created_at / 86400000 = campaign_daily_stats.day
        and m.status = 'skipped' and not m.is_test and m.kind <> 'answer');
