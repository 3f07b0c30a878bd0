-- The provider accepted these messages: one statement for a batch (a JSON array of {id, subject, html, text,
-- messageId, provider}); only claimed messages (one that recovery gave back to the queue is not marked), whose
-- claims `outgoing/drop_claims` deletes next in the same transaction (the ids returned).
-- jsonb_each: each element comes as JSONB, which the field reads use as it is (json_each renders the element back
-- to text for every field read, then parses it again).
update sent_emails set status = 'sent', sent_at = $2, subject = d.subject, html_body = d.html, text_body = d.body_text,
    message_id = d.message_id, provider = d.provider, error = null
from (select json_extract(value, '$.id') as id, json_extract(value, '$.subject') as subject,
          json_extract(value, '$.html') as html, json_extract(value, '$.text') as body_text,
          json_extract(value, '$.messageId') as message_id, json_extract(value, '$.provider') as provider
      from jsonb_each($1)) as d
where sent_emails.id = d.id and sent_emails.status = 'queued'
    and exists (select 1 from send_claims c where c.message = d.id)
returning id
