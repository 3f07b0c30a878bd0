-- A queue job as the audit log keeps it (primary key).
select cast(json_build_object('jobType', job_type, 'status', status, 'attempts', attempts,
    'runAt', extract(epoch from run_at)::bigint, 'lastResult', last_result) as text)
from apalis.jobs where id = $1
