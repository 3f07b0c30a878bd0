-- Prospects' replies received since `$1`, for reading again (index inbound_messages_user).
select id from inbound_messages where kind = 'reply' and received_at >= $1 order by id
