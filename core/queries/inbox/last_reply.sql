-- The Message-ID of a thread's latest reply, which an answer names in In-Reply-To (primary key).
select i.header_message_id from inbox_threads t join inbound_messages i on i.id = t.last_inbound_id where t.id = $1
