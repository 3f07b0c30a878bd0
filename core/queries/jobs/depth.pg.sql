-- Queue depth by kind: jobs waiting, running or due for a retry (apalis's partial fetch index), and the run time of
-- the oldest one due by $1 (unix seconds) that has not started.
select job_type, count(*) as waiting,
    cast(extract(epoch from min(run_at) filter (where status in ('Pending', 'Queued') and run_at <= to_timestamp($1))) as bigint)
        as oldest_due
from apalis.jobs
where status in ('Pending', 'Queued', 'Running') or (status = 'Failed' and attempts < max_attempts)
group by job_type
