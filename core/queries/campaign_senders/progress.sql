-- A campaign's messages by sender (index sent_emails_campaign_status): sent, and waiting on it (a follow-up or an
-- answer of its thread, or any message it has claimed now).
select m.config_id,
    cast(coalesce(sum(case when m.sent_at is not null then 1 else 0 end), 0) as bigint) as sent,
    cast(coalesce(sum(case when m.status = 'queued'
        and (not m.pooled or exists (select 1 from send_claims c where c.message = m.id)) then 1 else 0 end), 0)
        as bigint) as waiting
from sent_emails m
where m.campaign_id = $1 and m.config_id is not null
group by m.config_id
