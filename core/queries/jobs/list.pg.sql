-- Operator listing of queue jobs, newest first, optionally by status and kind (apalis's fetch index on job_type).
select id, job_type, status, attempts, max_attempts, extract(epoch from run_at)::bigint as run_at,
    extract(epoch from done_at)::bigint as done_at, last_result::text as last_result
from apalis.jobs
where ($1::text is null or status = $1) and ($2::text is null or job_type = $2)
order by run_at desc, id desc
limit $3
