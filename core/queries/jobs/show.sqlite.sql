-- One job with its payload's bytes (primary key).
select id, job_type, status, attempts, max_attempts, run_at, done_at, last_result, cast(job as blob) as payload,
    lock_by
from Jobs where id = $1
