-- The latest first emails and follow-ups ($2 each) of a user's campaigns, newest first (index
-- sent_emails_campaign_id; `sending` while one has a claim).
select m.id, m.campaign_id, m.to_email, m.subject,
    case when m.status = 'queued' and exists (select 1 from send_claims k where k.message = m.id)
        then 'sending' else m.status end as status,
    m.sent_at, m.opened_at, m.clicked_at, m.replied_at, m.bounced_at
from campaigns c cross join lateral (select * from sent_emails r where r.campaign_id = c.id
    and r.kind in ('first', 'follow_up')
    order by r.id desc limit $2) m
where c.user_id = $1
order by m.campaign_id, m.id desc
