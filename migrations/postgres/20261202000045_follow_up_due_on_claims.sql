-- A claim (queued → sending) and every other update that sets no message's sent or open time schedules no
-- follow-up: the trigger now says so before it joins the statement's old and new rows with the templates, as the
-- contacts' and daily counters' triggers do (SQLite's follow-up triggers fire only on those two columns). The join
-- found nothing for a claim and took about 3 of a 200-message claim's 14 ms (docs/benchmarks.md, Sending).
create or replace function follow_up_due_on_update() returns trigger language plpgsql as $$
begin
    if not exists (select 1 from new_rows where sent_at is not null or opened_at is not null) then
        return null;
    end if;
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
