-- Has the job of this kind with this idempotency key finished (done, or failed for good)? A request that waits on
-- its own job reads this, never a row another job may have written meanwhile.
select count(*) from apalis.jobs where job_type = $1 and idempotency_key = $2
    and status not in ('Pending', 'Queued', 'Running') and not (status = 'Failed' and attempts < max_attempts)
