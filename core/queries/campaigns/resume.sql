-- A campaign paused for a limit (or for want of a sender) whose next message was claimed is sending again (a user's
-- pause waits for the user).
update campaigns set status = 'active', status_reason = null, waiting_for_senders = false, updated_at = $2
where id = $1 and status = 'paused' and not paused_by_user
