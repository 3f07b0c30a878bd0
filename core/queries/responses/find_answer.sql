-- One answer of its owner, with the reply it answers (primary key).
select a.id, a.inbound_id, a.user_id, a.campaign_id, a.subject, a.body, a.status, a.why, a.automatic, a.writer,
    a.message_id, a.created_at
from reply_answers a where a.id = $1 and a.user_id = $2
