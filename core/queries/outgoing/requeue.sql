-- A claimed message that could not be handed over at all (connection refused, deferred) goes back to the queue
-- with why: its claim goes next, in the same transaction (`outgoing/drop_claims`); a hand-over recorded for it is
-- forgotten first (`SendingStore::requeue_message`).
update sent_emails set error = $2
where id = $1 and status = 'queued' and exists (select 1 from send_claims c where c.message = $1)
returning user_id, config_id
