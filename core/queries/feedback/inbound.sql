-- Mail received for a user: a reply, an automatic answer or a bounce, with the message it answers when known, and
-- the inbox thread it was filed in.
insert into inbound_messages (user_id, message_id, kind, from_email, subject, body, detail, source, received_at,
    header_message_id, thread_id)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
returning id
