-- Operator listing of queue jobs, newest first, optionally by status and kind (apalis's fetch index on job_type).
select id, job_type, status, attempts, max_attempts, run_at, done_at, last_result
from Jobs
where ($1 is null or status = $1) and ($2 is null or job_type = $2)
order by run_at desc, id desc
limit $3
