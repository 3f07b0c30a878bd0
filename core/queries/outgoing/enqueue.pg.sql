-- A batch of messages in one statement (a JSON array of NewMessage, created at $2); one message per (campaign,
-- business, kind, step): a second launch for the same recipient adds nothing. A test send is flagged by its kind.
insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, template_id, business_id, kind,
    step, config_id, token, error, is_test, html_body, in_reply_to)
select d.user_id, d.to_email, d.subject, d.status, $2, d.campaign_id, d.template_id, d.business_id, d.kind, d.step,
    d.config_id, d.token, d.error, d.kind = 'test', d.html_body, d.in_reply_to
from json_to_recordset(cast($1 as json)) as d(user_id bigint, to_email text, subject text, status text,
    campaign_id bigint, template_id bigint, business_id bigint, kind text, step integer, config_id bigint, token text,
    error text, html_body text, in_reply_to text)
on conflict (campaign_id, business_id, kind, step) do nothing
returning id
