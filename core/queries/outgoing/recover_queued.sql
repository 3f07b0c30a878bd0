-- A message a gone worker claimed and never handed over: back to the queue, to be sent by a new job; its claim is
-- given back by the caller. Primary keys.
update sent_emails set status = 'queued', claimed_by = null, error = $2
where id = $1 and status = 'sending'
    and not exists (select 1 from send_handovers where message = $1 and handed_by is not null)
returning campaign_id, user_id, config_id, claimed_at
