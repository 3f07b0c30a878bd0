-- A claimed message that could not be handed over at all (connection refused) goes back to the queue and gives its
-- claim back.
update sent_emails set status = 'queued', error = $2 where id = $1 and status = 'sending'
returning user_id, config_id, claimed_at
