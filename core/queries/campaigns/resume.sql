-- A paused campaign whose next message was claimed is sending again.
update campaigns set status = 'active', status_reason = null, updated_at = $2 where id = $1 and status = 'paused'
