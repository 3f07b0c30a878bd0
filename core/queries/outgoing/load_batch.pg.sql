-- The messages of a send batch (ids as a JSON array), with what sending them needs (`sending` while
-- one has a claim). Primary keys, whatever the statistics: the ids as one array (joined with the document's rows,
-- the planner read every message before any statistics), and each message's claim looked up on its own, as a
-- scalar subquery (an `exists` the planner may run once over every claim, which churn fills with dead rows).
select m.id, m.user_id, m.campaign_id, m.template_id, m.business_id, m.config_id, m.pooled, m.to_email,
    case when m.status = 'queued' and m.id = (select c.message from send_claims c where c.message = m.id)
        then 'sending' else m.status end as status, m.token,
    m.kind, m.step, m.subject, m.html_body, m.in_reply_to, m.variant
from sent_emails m
where m.id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
