-- A user's latest replies with their reading and answer (index inbound_messages_user).
select i.id, i.from_email, i.subject, i.body, i.received_at, i.message_id, m.subject as answered_subject,
    m.campaign_id, r.sentiment, r.action, r.confidence, r.language, r.summary, r.escalations, r.follow_up_on,
    r.classifier, r.note, a.id as answer_id, a.subject as answer_subject, a.body as answer_body,
    a.status as answer_status, a.why as answer_why, a.automatic as answer_automatic, a.writer as answer_writer,
    case when s.status = 'queued' and exists (select 1 from send_claims c where c.message = s.id) then 'sending'
        else s.status end as answer_message_status, s.sent_at as answer_sent_at
from inbound_messages i
left join sent_emails m on m.id = i.message_id
left join reply_readings r on r.inbound_id = i.id
left join reply_answers a on a.inbound_id = i.id
left join sent_emails s on s.id = a.message_id
where i.user_id = $1 and i.kind = 'reply'
order by i.received_at desc, i.id desc
limit $2
