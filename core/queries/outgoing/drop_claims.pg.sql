-- These messages (ids as a JSON array) leave sending: their claims go, each with when it was taken (for the day
-- counters it is given back to). Run after the statement that changed the messages, in its transaction: the
-- message's row is locked before its claim, in the order a claim takes them. Primary key.
delete from send_claims
where message = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
returning message, claimed_at
