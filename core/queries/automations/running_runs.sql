-- Automation runs running since before $1.
select id from automation_runs where status = 'running' and started_at < $1 order by id limit 1000
