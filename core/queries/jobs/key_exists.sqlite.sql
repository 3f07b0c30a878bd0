-- Is a job of this kind with this idempotency key already queued? (unique index idx_jobs_idempotency_key)
select count(*) from Jobs where job_type = $1 and idempotency_key = $2
