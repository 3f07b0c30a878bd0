-- These messages left sending (marked sent) or are about to go back to the queue (ids as a JSON array): their
-- hand-overs are no longer current. Primary key (the ids as one array: joined, the planner scanned the table).
delete from send_handovers
where message = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
