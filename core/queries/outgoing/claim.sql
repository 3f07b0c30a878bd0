-- Claims a queued message for sending (the counters were taken in the same transaction).
update sent_emails set status = 'sending', claimed_at = $2 where id = $1 and status = 'queued'
returning id
