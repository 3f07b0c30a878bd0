-- The messages of a send batch (ids as a JSON array), with what sending them needs.
select m.id, m.user_id, m.campaign_id, m.template_id, m.business_id, m.config_id, m.to_email, m.status, m.token,
    m.kind, m.step, m.subject, m.html_body, m.in_reply_to
from sent_emails m where m.id in (select value from json_each($1))
