-- A Gmail address connected again: its new refresh token, name and reply-to, and it is offered again.
update email_configs set secret = $3, send_from_name = $4, reply_to = $5, is_active = true, is_verified = true,
    status_message = null, updated_at = $6
where user_id = $1 and provider = 'gmail' and lower(send_from) = lower($2) and removed_at is null
