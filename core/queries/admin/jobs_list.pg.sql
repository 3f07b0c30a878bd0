-- Queue jobs for the console, a page in the order asked, of a kind and a status ('' for any), with their attempts
-- and last result.
select id, job_type, status, attempts, max_attempts, extract(epoch from run_at)::bigint as run_at,
    extract(epoch from done_at)::bigint as done_at, last_result::text as last_result
from apalis.jobs
where ($1 = '' or job_type = $1) and ($2 = '' or status = $2)
order by {order}
limit $3 offset $4
