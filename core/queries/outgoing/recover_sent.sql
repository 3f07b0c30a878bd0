-- A message a gone worker handed over before its last one on the same connection: the server took it (a refusal
-- would have unmarked it), so it is sent. Its copy of the body was not kept. Primary key.
update sent_emails set status = 'sent', sent_at = $2, error = null where id = $1 and status = 'sending'
returning campaign_id
