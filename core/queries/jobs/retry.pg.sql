-- Re-enqueue failed or killed jobs: one id, or every failed job (of a kind). Notifies listening workers at once.
with retried as (
    update apalis.jobs set status = 'Pending', attempts = 0, run_at = to_timestamp($3), lock_by = null,
        lock_at = null, done_at = null
    where status in ('Failed', 'Killed') and ($1::text is null or id = $1) and ($2::text is null or job_type = $2)
    returning id, job_type, run_at
)
select retried.id from retried,
    lateral (select pg_notify('apalis::job::insert',
        json_build_object('job_type', retried.job_type, 'id', retried.id, 'run_at', retried.run_at)::text)) as notified
