-- The replies and automatic answers filed in a thread (index inbound_messages_thread), oldest first, with the AI's
-- reading and the answer drafted to each.
select i.id, i.kind, i.from_email, i.subject, i.body, i.received_at, i.message_id,
    r.sentiment, r.action, r.confidence, r.language, r.summary, r.escalations,
    a.id as answer_id, a.subject as answer_subject, a.body as answer_body, a.status as answer_status,
    a.why as answer_why, a.automatic as answer_automatic
from inbound_messages i
left join reply_readings r on r.inbound_id = i.id
left join reply_answers a on a.inbound_id = i.id
where i.thread_id = $1
order by i.received_at, i.id
