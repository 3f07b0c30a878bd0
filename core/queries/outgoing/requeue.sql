-- A claimed message that could not be handed over at all (connection refused) goes back to the queue.
update sent_emails set status = 'queued', claimed_at = null, error = $2 where id = $1 and status = 'sending'
