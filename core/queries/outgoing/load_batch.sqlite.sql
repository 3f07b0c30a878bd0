-- The messages of a send batch (ids as a JSON array), with what sending them needs (`sending` while one has a
-- claim), as one JSON array (see `fetch_json_rows`).
select json_group_array(json_object(
    'id', m.id, 'user_id', m.user_id, 'campaign_id', m.campaign_id, 'template_id', m.template_id,
    'business_id', m.business_id, 'config_id', m.config_id,
    'pooled', json(case when m.pooled then 'true' else 'false' end), 'to_email', m.to_email,
    'status',
    case when m.status = 'queued' and exists (select 1 from send_claims c where c.message = m.id)
        then 'sending' else m.status end,
    'token', m.token, 'kind', m.kind, 'step', m.step, 'subject', m.subject, 'html_body', m.html_body,
    'in_reply_to', m.in_reply_to, 'variant', m.variant))
from sent_emails m where m.id in (select value from json_each($1))
