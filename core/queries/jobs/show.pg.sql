-- One job with its payload's bytes (primary key).
select id, job_type, status, attempts, max_attempts, extract(epoch from run_at)::bigint as run_at,
    extract(epoch from done_at)::bigint as done_at, last_result::text as last_result, job as payload, lock_by
from apalis.jobs where id = $1
