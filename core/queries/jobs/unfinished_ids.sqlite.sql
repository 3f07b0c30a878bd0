-- The ids payload field $2 names (a number or a list of numbers) in jobs of kind $1 that are not done: waiting,
-- running, retrying, failed for good or cancelled (these two are the operator's to run again), so a chain whose
-- next job is missing is told apart from one whose next job exists. A payload that is not JSON names nothing.
select distinct cast(field.value as integer)
from Jobs, json_each(case when json_valid(cast(Jobs.job as text)) then cast(Jobs.job as text) else '{}' end,
    '$.' || $2) as field
where Jobs.job_type = $1 and Jobs.status <> 'Done'
