-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, connection, seq,
-- messageId}), each in its connection's window `seq`, with its Message-ID. A row with no connection unmarks a message
-- handed over before that its server did not take (or that was never tried): only messages the server took stay
-- marked. Only messages still in sending (with a claim), each claim looked up by its primary key on its own, as a
-- scalar subquery: as an `exists` the planner read every claim for each window (claims churn: between two vacuums
-- their table holds a dead row for every message sent since).
insert into send_handovers as s (message, handed_by, handed_seq, message_id)
select h.id, h.connection, h.seq, h."messageId"
from jsonb_to_recordset(cast($1 as jsonb)) as h(id bigint, connection text, seq bigint, "messageId" text)
where h.id = (select c.message from send_claims c where c.message = h.id)
on conflict (message) do update set handed_by = excluded.handed_by, handed_seq = excluded.handed_seq,
    message_id = coalesce(excluded.message_id, s.message_id)
