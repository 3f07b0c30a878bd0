-- Which of these idempotency keys (a JSON array) a job of this kind already holds (unique index
-- idx_jobs_idempotency_key).
select idempotency_key from apalis.jobs
where job_type = $1 and idempotency_key in (select value from jsonb_array_elements_text(cast($2 as jsonb)))
