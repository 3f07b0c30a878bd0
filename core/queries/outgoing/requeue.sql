-- A claimed message that could not be handed over at all (connection refused, deferred) goes back to the queue and
-- gives its claim back; a hand-over recorded for it is undone.
update sent_emails set status = 'queued', error = $2, handed_by = null, handed_seq = null
where id = $1 and status = 'sending'
returning user_id, config_id, claimed_at
