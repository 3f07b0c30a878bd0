-- Mail a user received from one address, or about a message to it (replies, automatic answers, bounces).
select i.id, i.message_id, i.kind, i.from_email, i.subject, i.body, i.detail, i.source, i.received_at
from inbound_messages i
where i.user_id = $1 and (i.from_email = $2 or i.message_id in
    (select m.id from sent_emails m where m.user_id = $1 and m.to_email = $2))
order by i.received_at, i.id
