-- A campaign paused for a limit whose next message was claimed is sending again (a user's pause waits for the user).
update campaigns set status = 'active', status_reason = null, updated_at = $2
where id = $1 and status = 'paused' and not paused_by_user
