-- The provider accepted these messages: one statement for a batch (a JSON array of {id, subject, html, text,
-- messageId, provider}).
update sent_emails m set status = 'sent', sent_at = $2, subject = d.subject, html_body = d.html, text_body = d.text,
    message_id = d."messageId", provider = d.provider, error = null
from jsonb_to_recordset(cast($1 as jsonb)) as d(id bigint, subject text, html text, text text, "messageId" text,
    provider text)
where m.id = d.id and m.status = 'sending'
