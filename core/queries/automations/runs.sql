-- A user's runs, newest first (index automation_runs_user), with their campaign's name now.
select r.id, r.automation_id, r.automation_name, r.started_at, r.businesses_targeted, r.businesses_found, r.status,
    r.manual, r.error, coalesce(c.name, r.automation_name) as campaign_name, r.report
from automation_runs r left join campaigns c on c.id = r.campaign_id
where r.user_id = $1
order by r.started_at desc, r.id desc
limit $2
