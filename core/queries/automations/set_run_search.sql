-- The search a run started.
update automation_runs set search_id = $2 where id = $1
