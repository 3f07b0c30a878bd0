-- These messages left sending (marked sent) or are about to go back to the queue (ids as a JSON array): their
-- hand-overs are no longer current. Primary key.
delete from send_handovers where message in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb)))
