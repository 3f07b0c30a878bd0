-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, refusedBefore,
-- connection, seq, messageId}), each on its connection, with its Message-ID. The message before one on its
-- connection, when the server refused it after its content, is unmarked: only messages the server took stay
-- marked. Only messages still in sending. Primary keys.
with handed as (
    select * from jsonb_to_recordset(cast($1 as jsonb))
        as h(id bigint, "refusedBefore" bigint, connection text, seq bigint, "messageId" text)
)
insert into send_handovers as s (message, handed_by, handed_seq, message_id)
select h.id, h.connection, h.seq, h."messageId"
from (select id, connection, seq, "messageId" from handed
      union all
      select "refusedBefore", null, null, null from handed where "refusedBefore" is not null) as h
    join sent_emails m on m.id = h.id and m.status = 'sending'
on conflict (message) do update set handed_by = excluded.handed_by, handed_seq = excluded.handed_seq,
    message_id = coalesce(excluded.message_id, s.message_id)
