-- The sender identity a user edits (A §7 PUT email-configs/{id}): name, address (basic addresses) and reply-to.
update email_configs set send_from_name = $3, send_from = $4, reply_to = $5, updated_at = $6
where id = $1 and user_id = $2
