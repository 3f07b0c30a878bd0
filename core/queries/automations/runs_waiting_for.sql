-- Automation runs still running whose search is $1 (they go on when it ends).
select id from automation_runs where search_id = $1 and status = 'running' order by id
