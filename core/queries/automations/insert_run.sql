-- A run of an automation: scheduled (one per automation and day: nothing when it exists) or run now (no day).
insert into automation_runs (automation_id, user_id, campaign_id, automation_name, run_day, manual, status, started_at)
select a.id, a.user_id, a.campaign_id, a.campaign_name, cast($2 as text), cast($3 as boolean), 'running',
    cast($4 as bigint)
from automations a where a.id = $1
on conflict (automation_id, run_day) do nothing
returning id
