-- A stopped worker's fetched rows go back to the queue, fetched again at once (primary key).
update Jobs set status = 'Pending', lock_by = null, lock_at = null
where id = $1 and lock_by = $2 and status in ('Queued', 'Running')
