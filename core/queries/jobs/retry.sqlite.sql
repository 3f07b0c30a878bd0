-- Re-enqueue failed or killed jobs: one id, or every failed job (of a kind).
update Jobs set status = 'Pending', attempts = 0, run_at = $3, lock_by = null, lock_at = null, done_at = null
where status in ('Failed', 'Killed') and ($1 is null or id = $1) and ($2 is null or job_type = $2)
returning id
