-- A batch of messages in one statement (arrays of equal length, one a column, created at $17); one message per
-- (campaign, business, kind, step): a second launch for the same recipient adds nothing. A test send is flagged by
-- its kind. Arrays, not a JSON document: the server takes bound arrays as they are, where it parsed the document
-- first (about a tenth of writing a follow-up run's 20,000 rows).
insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, template_id, business_id, kind,
    step, config_id, pooled, token, error, is_test, html_body, in_reply_to, variant)
select d.user_id, d.to_email, d.subject, d.status, $17, d.campaign_id, d.template_id, d.business_id, d.kind, d.step,
    d.config_id, d.pooled, d.token, d.error, d.kind = 'test', d.html_body, d.in_reply_to, d.variant
from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[], $8::text[],
    $9::integer[], $10::bigint[], $11::boolean[], $12::text[], $13::text[], $14::text[], $15::text[], $16::integer[])
    as d (user_id, to_email, subject, status, campaign_id, template_id, business_id, kind, step, config_id, pooled,
        token, error, html_body, in_reply_to, variant)
on conflict (campaign_id, business_id, kind, step) do nothing
returning id
