-- A message with what sending it needs: the template, the recipient business and the sender; `sending` while it
-- has a claim.
select m.id, m.user_id, m.campaign_id, m.template_id, m.business_id, m.config_id, m.pooled, m.to_email,
    case when m.status = 'queued' and exists (select 1 from send_claims c where c.message = m.id)
        then 'sending' else m.status end as status, m.token,
    m.kind, m.step, m.subject, m.html_body, m.in_reply_to, m.variant
from sent_emails m where m.id = $1
