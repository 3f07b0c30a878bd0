-- Before their content goes to their senders: these messages are handed over (a JSON array of {id, refusedBefore,
-- connection, seq, messageId}), each on its connection, with its Message-ID. The message before one on its
-- connection, when the server refused it after its content, is unmarked: only messages the server took stay
-- marked. Only messages still in sending. Primary keys.
with handed as (
    select json_extract(value, '$.id') as id, json_extract(value, '$.refusedBefore') as refused_before,
        json_extract(value, '$.connection') as connection, json_extract(value, '$.seq') as seq,
        json_extract(value, '$.messageId') as message_id
    from json_each($1)
)
insert into send_handovers (message, handed_by, handed_seq, message_id)
select h.id, h.connection, h.seq, h.message_id
from (select id, connection, seq, message_id from handed
      union all
      select refused_before, null, null, null from handed where refused_before is not null) as h
    join sent_emails m on m.id = h.id and m.status = 'sending'
-- SQLite reads an upsert's `on` after a join as the join's unless the select has a where clause.
where true
on conflict (message) do update set handed_by = excluded.handed_by, handed_seq = excluded.handed_seq,
    message_id = coalesce(excluded.message_id, send_handovers.message_id)
