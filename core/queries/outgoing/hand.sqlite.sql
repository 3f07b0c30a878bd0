-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, connection, seq,
-- messageId}), each in its connection's window `seq`, with its Message-ID. A row with no connection unmarks a message
-- handed over before that its server did not take (or that was never tried): only messages the server took stay
-- marked. Only messages still in sending (with a claim). Primary keys. Runs on the hand-over file's own connection,
-- where `send_claims` is in the attached main file (`platform::db`).
-- jsonb_each: each element comes as JSONB, which the field reads use as it is (json_each renders the element back
-- to text for every field read, then parses it again).
insert into send_handovers (message, handed_by, handed_seq, message_id)
select json_extract(h.value, '$.id'), json_extract(h.value, '$.connection'), json_extract(h.value, '$.seq'),
    json_extract(h.value, '$.messageId')
from jsonb_each($1) as h
where exists (select 1 from send_claims c where c.message = json_extract(h.value, '$.id'))
on conflict (message) do update set handed_by = excluded.handed_by, handed_seq = excluded.handed_seq,
    message_id = coalesce(excluded.message_id, send_handovers.message_id)
