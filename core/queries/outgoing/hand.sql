-- Before a message's content goes to its sender: it is handed over on this connection, with its Message-ID. The
-- message before it on the connection, when the server refused it after its content, is unmarked: only messages
-- the server took stay marked. Primary key.
update sent_emails set handed_by = case when id = $1 then cast($3 as text) end,
    handed_seq = case when id = $1 then cast($4 as bigint) end,
    message_id = case when id = $1 then cast($5 as text) else message_id end
where id in ($1, $2) and status = 'sending'
