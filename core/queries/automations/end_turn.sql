-- Run $2 gives the automation's turn back (primary key).
update automations set running_run = null where id = $1 and running_run = $2
