-- These messages (ids as a JSON array) leave sending: their claims go, each with when it was taken (for the day
-- counters it is given back to). Run in the transaction of the statement that changed the messages. Primary key.
delete from send_claims where message in (select value from json_each($1))
returning message, claimed_at
