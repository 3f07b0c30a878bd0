-- The provider accepted the message.
update sent_emails set status = 'sent', sent_at = $2, subject = $3, html_body = $4, text_body = $5, message_id = $6,
    provider = $7, error = null
where id = $1 and status = 'sending'
