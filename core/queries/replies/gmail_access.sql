-- Whether a Gmail sender may be read for replies (the scopes Google granted), and where reading starts.
update email_configs set gmail_read = $3, gmail_history_id = $4, replies_error = null
where user_id = $1 and provider = 'gmail' and lower(send_from) = lower($2)
