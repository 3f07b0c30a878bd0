-- A message a gone worker claimed and never handed over: back to the queue with why, to be sent by a new job; its
-- claim goes next, in the same transaction, and is given back by the caller. Primary keys.
update sent_emails set error = $2
where id = $1 and status = 'queued' and exists (select 1 from send_claims c where c.message = $1)
    and not exists (select 1 from send_handovers where message = $1 and handed_by is not null)
returning campaign_id, user_id, config_id
