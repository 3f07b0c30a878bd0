-- One run, its owner's ($2) or anyone's (null).
select id, automation_id, user_id, campaign_id, automation_name, run_day, manual, status, search_id, businesses_found,
    businesses_targeted, emails_queued, report, error, started_at, finished_at
from automation_runs where id = $1 and (cast($2 as bigint) is null or user_id = $2)
