-- The messages of a thread: its first email ($3) and, for a campaign's business ($1, $2), every first email,
-- follow-up and answer to it (index sent_emails_campaign_business_kind_step), oldest first.
select id, kind, step, subject, html_body,
    case when status = 'queued' and exists (select 1 from send_claims c where c.message = m.id) then 'sending'
        else status end as status, error, to_email, sent_at, created_at
from sent_emails m
where (campaign_id = $1 and business_id = $2 and kind <> 'test') or id = $3
order by coalesce(sent_at, created_at), id
