-- Reading got this far (one message at a time, so a crash reads at most one message again).
update email_configs set imap_uid_validity = $2, imap_last_uid = $3, replies_checked_at = $4, replies_error = null
where id = $1
