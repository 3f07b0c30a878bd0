-- Which of these idempotency keys (a JSON array) a job of this kind already holds (unique index
-- idx_jobs_idempotency_key).
select idempotency_key from Jobs where job_type = $1 and idempotency_key in (select value from json_each($2))
