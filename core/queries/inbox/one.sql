-- One of a user's inbox threads, as the list shows it (primary key).
select t.id, t.root_message_id, t.last_inbound_id, t.campaign_id, c.name as campaign_name, t.business_id, b.name as business_name, t.config_id,
    t.to_email, t.subject, t.last_reply_at, t.last_from, t.excerpt, t.replies, t.unread, t.done, t.label,
    r.sentiment, r.action, r.escalations,
    exists (select 1 from reply_answers a where a.thread_id = t.id and a.status = 'awaiting_approval') as awaiting
from inbox_threads t
left join campaigns c on c.id = t.campaign_id
left join businesses b on b.id = t.business_id
left join reply_readings r on r.inbound_id = t.last_inbound_id
where t.id = $1 and t.user_id = $2
