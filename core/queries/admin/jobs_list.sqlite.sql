-- Queue jobs for the console, a page in the order asked, of a kind and a status ('' for any), with their attempts
-- and last result.
select id, job_type, status, attempts, max_attempts, run_at, done_at, last_result
from Jobs
where ($1 = '' or job_type = $1) and ($2 = '' or status = $2)
order by {order}
limit $3 offset $4
