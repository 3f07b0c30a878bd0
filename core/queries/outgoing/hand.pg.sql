-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, refusedBefore,
-- connection, seq, messageId}), each on its connection, with its Message-ID. The message before one on its
-- connection, when the server refused it after its content, is unmarked: only messages the server took stay
-- marked. Primary key.
with handed as (
    select * from jsonb_to_recordset(cast($1 as jsonb))
        as h(id bigint, "refusedBefore" bigint, connection text, seq bigint, "messageId" text)
)
update sent_emails m set handed_by = h.connection, handed_seq = h.seq,
    message_id = coalesce(h."messageId", m.message_id)
from (select id, connection, seq, "messageId" from handed
      union all
      select "refusedBefore", null, null, null from handed where "refusedBefore" is not null) as h
where m.id = h.id and m.status = 'sending'
