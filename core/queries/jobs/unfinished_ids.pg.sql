-- The ids payload field $2 names (a number or a list of numbers) in jobs of kind $1 that are not done: waiting,
-- running, retrying, failed for good or cancelled (these two are the operator's to run again), so a chain whose
-- next job is missing is told apart from one whose next job exists. A payload that is not JSON names nothing.
select distinct cast(field.value as bigint)
from apalis.jobs,
    lateral (select outreach_job_json(job) -> $2 as named) as payload,
    jsonb_array_elements_text(case jsonb_typeof(payload.named) when 'array' then payload.named
        else jsonb_build_array(payload.named) end) as field
where job_type = $1 and status <> 'Done' and payload.named is not null
