-- The reply just filed is the thread's latest. Primary key.
update inbox_threads set last_inbound_id = $2 where id = $1
