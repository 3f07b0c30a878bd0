-- Each variant's figures of a campaign's steps (first email and follow-ups): messages sent, opened by a person,
-- replied to, and replied to positively as the reply's reading says (index sent_emails_campaign_status; replies by
-- inbound_messages_message).
select m.step, m.variant,
    cast(count(distinct case when m.sent_at is not null then m.id end) as bigint) as sent,
    cast(count(distinct case when m.opened_at is not null then m.id end) as bigint) as opened,
    cast(count(distinct case when m.replied_at is not null or i.id is not null then m.id end) as bigint) as replied,
    cast(count(distinct case when r.sentiment = 'positive' then m.id end) as bigint) as positive
from sent_emails m
left join inbound_messages i on i.message_id = m.id and i.kind = 'reply'
left join reply_readings r on r.inbound_id = i.id
where m.campaign_id = $1 and m.kind in ('first', 'follow_up')
group by m.step, m.variant
order by m.step, m.variant
