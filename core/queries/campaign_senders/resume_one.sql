-- A campaign that paused for want of a sender has a new pool: it sends again (the next batch pauses it once more if
-- no sender of the new pool can send).
update campaigns set status = 'active', status_reason = null, waiting_for_senders = false, updated_at = $2
where id = $1 and waiting_for_senders and status = 'paused'
