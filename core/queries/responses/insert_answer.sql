-- An answer to a reply: one per reply (a second reading of it writes none), in the reply's inbox thread.
insert into reply_answers (inbound_id, user_id, campaign_id, subject, body, status, why, automatic, writer, created_at,
    thread_id)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, (select i.thread_id from inbound_messages i where i.id = $1))
on conflict (inbound_id) do nothing
returning id
