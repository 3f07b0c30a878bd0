-- Records a finished chunk; $3 is the new status ('running', 'complete', or 'failed' with the reason $5), $4 the
-- end time once it ended. Only a running search moves on.
update searches set chunks_done = chunks_done + 1, businesses_found = $2, status = $3, finished_at = $4,
    error = coalesce($5, error)
where id = $1 and status = 'running'
