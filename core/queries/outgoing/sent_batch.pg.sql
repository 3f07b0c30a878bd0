-- The provider accepted these messages: one statement for a batch, as arrays of equal length (ids, subjects, HTML
-- and text bodies, Message-IDs, providers). Arrays, not a JSON document: the server takes bound arrays as they are,
-- where it parsed a JSON document of the batch's bodies into JSONB first (about 12 us a message).
update sent_emails m set status = 'sent', sent_at = $7, subject = d.subject, html_body = d.html, text_body = d.text,
    message_id = d.message_id, provider = d.provider, error = null
from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
    as d (id, subject, html, text, message_id, provider)
where m.id = d.id and m.status = 'sending'
