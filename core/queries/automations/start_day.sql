-- The day's run of every automation that runs today, in one statement (nothing for one that has it): each new run
-- with its automation (index automations_active, then automation_runs_day).
insert into automation_runs (automation_id, user_id, campaign_id, automation_name, run_day, manual, status, started_at)
select a.id, a.user_id, a.campaign_id, a.campaign_name, cast($1 as text), false, 'running', cast($2 as bigint)
from automations a
where a.is_active and a.ended_reason is null
on conflict (automation_id, run_day) do nothing
returning automation_id, id
