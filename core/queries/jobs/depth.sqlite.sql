-- Queue depth by kind: jobs waiting, running or due for a retry.
select job_type, count(*) as waiting from Jobs
where status in ('Pending', 'Queued', 'Running') or (status = 'Failed' and attempts < max_attempts)
group by job_type
