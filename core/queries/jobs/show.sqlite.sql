-- One job with its payload (primary key).
select id, job_type, status, attempts, max_attempts, run_at, done_at, last_result,
    cast(job as text) as payload, lock_by
from Jobs where id = $1
