-- The mailbox was read (with nothing new), or could not be ($2: why).
update email_configs set replies_checked_at = $3, replies_error = $2 where id = $1
