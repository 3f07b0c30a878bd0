-- A reply to read, with the message it answers and that message's campaign (its AI settings, window and
-- education text): everything classifying and answering it needs (primary keys).
select i.id, i.user_id, i.message_id, i.subject, i.body, i.from_email, i.header_message_id, i.received_at,
    m.campaign_id, m.business_id, m.to_email, m.subject as thread_subject, m.config_id, b.name as business_name,
    c.ai_education_text, c.email_from_name, c.sales_aggressiveness, c.certainty_threshold, c.reply_timing,
    c.human_approval, c.auto_reply_max_per_day, c.auto_reply_min_percent, coalesce(c.window_days, 127) as window_days,
    coalesce(c.window_start, 0) as window_start, coalesce(c.window_end, 1440) as window_end,
    coalesce(c.window_time_zone, 'UTC') as window_time_zone, b.latitude, b.longitude, b.city
from inbound_messages i
join sent_emails m on m.id = i.message_id
left join businesses b on b.id = m.business_id
left join campaigns c on c.id = m.campaign_id
where i.id = $1 and i.kind = 'reply'
