-- Queue depth by kind: jobs waiting, running or due for a retry (apalis's partial fetch index).
select job_type, count(*) as waiting from apalis.jobs
where status in ('Pending', 'Queued', 'Running') or (status = 'Failed' and attempts < max_attempts)
group by job_type
