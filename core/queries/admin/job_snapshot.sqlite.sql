-- A queue job as the audit log keeps it (primary key).
select json_object('jobType', job_type, 'status', status, 'attempts', attempts, 'runAt', run_at,
    'lastResult', last_result)
from Jobs where id = $1
