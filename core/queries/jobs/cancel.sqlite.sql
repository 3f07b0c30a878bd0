-- Cancels a job that has not run yet: it is killed and never fetched.
update Jobs set status = 'Killed', last_result = '{"Err":"Cancelled by an administrator"}'
where id = $1 and status in ('Pending', 'Queued')
