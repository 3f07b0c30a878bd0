-- A claimed message that could not be handed over at all (connection refused, deferred) goes back to the queue and
-- gives its claim back; a hand-over recorded for it is forgotten first (`SendingStore::requeue_message`).
update sent_emails set status = 'queued', error = $2
where id = $1 and status = 'sending'
returning user_id, config_id, claimed_at
