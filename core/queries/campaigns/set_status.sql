-- The sending worker moves a campaign between active, paused (with the reason) and completed.
update campaigns set status = $2, status_reason = $3, waiting_for_senders = false, updated_at = $4 where id = $1
