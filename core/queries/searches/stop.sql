-- Ends a running search as cancelled or failed (with the reason).
update searches set status = $2, error = $3, finished_at = $4 where id = $1 and status = 'running'
