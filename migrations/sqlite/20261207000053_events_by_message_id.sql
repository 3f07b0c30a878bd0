-- Tracking events name their message by its id as well as by the token their link carried, and the events' index is
-- of ids: an entry of the token's index (44 bytes of text at a place its random token picked) took a page of its own
-- for each message a batch's opens were spread over, and SQLite logs every page a write changes whole
-- (docs/benchmarks.md, Tracking). An event whose token names no message (its message deleted since) keeps no id. The
-- triggers find an event's message by primary key.
alter table email_events add column message integer;
update email_events set message = (select m.id from sent_emails m where m.token = email_events.token);
create index email_events_message on email_events (message);
drop index email_events_token;

drop trigger email_events_daily;
create trigger email_events_daily after insert on email_events
when new.kind in ('open', 'click')
begin
    insert into campaign_daily_stats (campaign_id, day, human_opens, machine_opens, clicks)
    select m.campaign_id, new.occurred_at / 86400000, new.kind = 'open' and not new.is_machine,
        new.kind = 'open' and new.is_machine, new.kind = 'click'
    from sent_emails m where m.id = new.message and m.campaign_id is not null and not m.is_test and m.kind <> 'answer'
    on conflict (campaign_id, day) do update set human_opens = human_opens + excluded.human_opens,
        machine_opens = machine_opens + excluded.machine_opens, clicks = clicks + excluded.clicks;
end;

drop trigger email_events_first_times;
create trigger email_events_first_times after insert on email_events
when new.kind = 'click' or (new.kind = 'open' and not new.is_machine)
begin
    update sent_emails set
        opened_at = min(coalesce(opened_at, new.occurred_at), new.occurred_at),
        clicked_at = case when new.kind = 'click' then min(coalesce(clicked_at, new.occurred_at), new.occurred_at)
            else clicked_at end,
        status = case when status in ('sent', 'delivered') then 'opened' else status end
    where id = new.message
        and (opened_at is null or opened_at > new.occurred_at or status in ('sent', 'delivered')
            or (new.kind = 'click' and (clicked_at is null or clicked_at > new.occurred_at)));
end;
