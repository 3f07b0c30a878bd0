-- When the next follow-up of a message's sequence is due by its delay (issue 19): the follow-up scan reads only
-- these rows, so a minute's run costs what is due, not every message ever sent. A row is written when the message
-- is sent (templates timing follow-ups from sending) or first opened by a person (timing from the open), rewritten
-- when a template's sequence or timing changes, and deleted when the follow-up is written or the sequence ends.
-- A table of its own, so writing and clearing these never touches sent_emails and its triggers.
create table follow_up_due (
    message_id bigint primary key references sent_emails (id) on delete cascade,
    campaign_id bigint not null references campaigns (id) on delete cascade,
    due_at bigint not null
);
create index follow_up_due_at on follow_up_due (due_at, message_id);
create index follow_up_due_campaign on follow_up_due (campaign_id, due_at);
-- The scan no longer reads sent_emails by step and open; every send pays for an index less.
drop index sent_emails_follow_up_scan;

-- Statement-level, like the counters: a batch of sends or opens is one insert.
create function follow_up_due_on_update() returns trigger language plpgsql as $$
begin
    insert into follow_up_due (message_id, campaign_id, due_at)
    select n.id, n.campaign_id,
        (case when t.follow_up_timing = 'after_send' then n.sent_at else n.opened_at end) + f.delay_days * 86400000
    from new_rows n join old_rows o on o.id = n.id
    join email_templates t on t.id = n.template_id
    join follow_up_templates f on f.main_template_id = n.template_id and f.sequence_number = n.step + 1 and f.is_active
    where n.campaign_id is not null and n.business_id is not null and not n.is_test
        and ((t.follow_up_timing = 'after_send' and o.sent_at is null and n.sent_at is not null)
            or (t.follow_up_timing = 'after_open' and o.opened_at is null and n.opened_at is not null))
    on conflict (message_id) do update set due_at = excluded.due_at;
    return null;
end $$;
create trigger sent_emails_follow_up_due after update on sent_emails
    referencing old table as old_rows new table as new_rows for each statement
    execute function follow_up_due_on_update();

-- Messages sent before this migration whose next follow-up is not written yet.
insert into follow_up_due (message_id, campaign_id, due_at)
select p.id, p.campaign_id,
    (case when t.follow_up_timing = 'after_send' then p.sent_at else p.opened_at end) + f.delay_days * 86400000
from sent_emails p
join email_templates t on t.id = p.template_id
join follow_up_templates f on f.main_template_id = p.template_id and f.sequence_number = p.step + 1 and f.is_active
where p.campaign_id is not null and p.business_id is not null and not p.is_test and p.sent_at is not null
    and (t.follow_up_timing = 'after_send' or p.opened_at is not null)
    and not exists (select 1 from sent_emails n where n.campaign_id = p.campaign_id
        and n.business_id = p.business_id and n.step = p.step + 1);
