-- Records a finished chunk; $3 is the new status ('running' or 'complete'), $4 the end time once complete.
-- Only a running search moves on.
update searches set chunks_done = chunks_done + 1, businesses_found = $2, status = $3, finished_at = $4
where id = $1 and status = 'running'
