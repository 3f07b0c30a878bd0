-- The recipient unsubscribed through the provider.
update sent_emails set unsubscribed_at = coalesce(unsubscribed_at, $2) where id = $1
