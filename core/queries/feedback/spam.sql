-- The recipient reported the message as spam.
update sent_emails set spam_reported_at = coalesce(spam_reported_at, $2), status = 'spam' where id = $1
