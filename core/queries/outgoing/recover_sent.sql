-- A message a gone worker handed over before its last one on the same connection: the server took it (a refusal
-- would have unmarked it), so it is sent, with the Message-ID it went out with; its claim goes next, in the same
-- transaction. Its copy of the body was not kept. Primary keys.
update sent_emails set status = 'sent', sent_at = $2, error = null,
    message_id = coalesce((select message_id from send_handovers where message = $1), message_id)
where id = $1 and status = 'queued' and exists (select 1 from send_claims c where c.message = $1)
returning campaign_id
