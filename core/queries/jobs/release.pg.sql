-- A stopped worker's fetched rows go back to the queue, fetched again at once (primary key; notifies workers).
with released as (
    update apalis.jobs set status = 'Pending', lock_by = null, lock_at = null
    where id = $1 and lock_by = $2 and status in ('Queued', 'Running')
    returning id, job_type, run_at
)
select count(*) from released,
    lateral (select pg_notify('apalis::job::insert',
        json_build_object('job_type', released.job_type, 'id', released.id, 'run_at', released.run_at)::text)) as notified
