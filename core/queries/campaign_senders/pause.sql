-- No sender of the campaign's pool can send: it pauses with why, until one is put back or the pool changes.
update campaigns set status = 'paused', status_reason = $2, waiting_for_senders = true, updated_at = $3
where id = $1 and status = 'active'
