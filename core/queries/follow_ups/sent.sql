-- A user's sent follow-ups, newest first, with the first email of their sequence (B §3 Follow-up analytics item).
select m.id, m.subject as follow_up_subject, m.to_email as recipient_email, m.sent_at, m.step as sequence_number,
    m.opened_at is not null as opened, m.clicked_at is not null as clicked, o.subject as original_subject
from sent_emails m
left join sent_emails o on o.campaign_id = m.campaign_id and o.business_id = m.business_id
    and o.kind = 'first' and o.step = 0
where m.user_id = $1 and m.kind = 'follow_up' and m.campaign_id is not null and m.sent_at is not null
order by m.sent_at desc, m.id desc
limit $2
