-- Prospects' replies to a message, received before $1, that no classifier has read.
select i.id from inbound_messages i
left join reply_readings r on r.inbound_id = i.id
where i.kind = 'reply' and i.message_id is not null and r.inbound_id is null and i.received_at < $1
order by i.id
limit 1000
