-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, refusedBefore,
-- connection, seq, messageId}), each on its connection, with its Message-ID. The message before one on its
-- connection, when the server refused it after its content, is unmarked: only messages the server took stay
-- marked. Primary key.
with handed as (
    select json_extract(value, '$.id') as id, json_extract(value, '$.refusedBefore') as refused_before,
        json_extract(value, '$.connection') as connection, json_extract(value, '$.seq') as seq,
        json_extract(value, '$.messageId') as message_id
    from json_each($1)
)
update sent_emails set handed_by = h.connection, handed_seq = h.seq,
    message_id = coalesce(h.message_id, sent_emails.message_id)
from (select id, connection, seq, message_id from handed
      union all
      select refused_before, null, null, null from handed where refused_before is not null) as h
where sent_emails.id = h.id and sent_emails.status = 'sending'
