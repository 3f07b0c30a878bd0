-- A batch of messages in one statement (a JSON array of NewMessage, created at $2); one message per (campaign,
-- business, kind, step): a second launch for the same recipient adds nothing. A test send is flagged by its kind.
-- jsonb_each: each element comes as JSONB, which the field reads use as it is (json_each renders the element back
-- to text for every field read, then parses it again).
insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, template_id, business_id, kind,
    step, config_id, pooled, token, error, is_test, html_body, in_reply_to, variant)
select json_extract(value, '$.user_id'), json_extract(value, '$.to_email'), json_extract(value, '$.subject'),
    json_extract(value, '$.status'), $2, json_extract(value, '$.campaign_id'), json_extract(value, '$.template_id'),
    json_extract(value, '$.business_id'), json_extract(value, '$.kind'), json_extract(value, '$.step'),
    json_extract(value, '$.config_id'), json_extract(value, '$.pooled'), json_extract(value, '$.token'), json_extract(value, '$.error'), json_extract(value, '$.kind') = 'test',
    json_extract(value, '$.html_body'), json_extract(value, '$.in_reply_to'), json_extract(value, '$.variant')
from jsonb_each($1)
where true
order by key
on conflict (campaign_id, business_id, kind, step) do nothing
returning id
