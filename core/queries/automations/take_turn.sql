-- Run $2 takes the automation's turn (primary key): free, its own already, or held by a run that is no longer
-- running. No row: another run holds it.
update automations set running_run = $2
where id = $1 and (running_run is null or running_run = $2
    or running_run not in (select id from automation_runs where status = 'running'))
returning id
