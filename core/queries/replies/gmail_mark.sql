-- Reading the Gmail mailbox got this far.
update email_configs set gmail_history_id = $2, replies_checked_at = $3, replies_error = null where id = $1
