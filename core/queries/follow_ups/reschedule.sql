-- Writes again when the next follow-up of each message of template $1 is due, after its sequence or timing changed
-- (the old rows are deleted first by follow_ups/unschedule): messages whose next follow-up is not written yet (a
-- scan of the template's messages; edits are rare).
insert into follow_up_due (message_id, campaign_id, due_at)
select p.id, p.campaign_id,
    (case when t.follow_up_timing = 'after_send' then p.sent_at else p.opened_at end) + f.delay_days * 86400000
from sent_emails p
join email_templates t on t.id = p.template_id
join follow_up_templates f on f.main_template_id = p.template_id and f.sequence_number = p.step + 1 and f.is_active
where p.template_id = $1 and p.campaign_id is not null and p.business_id is not null
    and p.kind in ('first', 'follow_up')
    and p.sent_at is not null and (t.follow_up_timing = 'after_send' or p.opened_at is not null)
    and not exists (select 1 from sent_emails n where n.campaign_id = p.campaign_id
        and n.business_id = p.business_id and n.kind = 'follow_up' and n.step = p.step + 1)
on conflict (message_id) do update set due_at = excluded.due_at
