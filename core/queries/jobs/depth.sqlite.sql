-- Queue depth by kind: jobs waiting, running or due for a retry, and the run time of the oldest one due by $1 (unix
-- seconds) that has not started.
select job_type, count(*) as waiting,
    min(case when status in ('Pending', 'Queued') and run_at <= $1 then run_at end) as oldest_due
from Jobs
where status in ('Pending', 'Queued', 'Running') or (status = 'Failed' and attempts < max_attempts)
group by job_type
