-- Ends the wait for a next follow-up of these messages (ids as a JSON array): it was written, or the sequence ended.
delete from follow_up_due where message_id in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb)))
