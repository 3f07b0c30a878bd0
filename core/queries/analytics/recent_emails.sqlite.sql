-- The latest first emails and follow-ups ($2 each) of a user's campaigns, newest first (`sending` while one has a
-- claim).
select id, campaign_id, to_email, subject,
    case when status = 'queued' and exists (select 1 from send_claims c where c.message = r.id) then 'sending'
        else status end as status,
    sent_at, opened_at, clicked_at, replied_at, bounced_at
from (select m.*, row_number() over (partition by m.campaign_id order by m.id desc) as position
    from sent_emails m join campaigns c on c.id = m.campaign_id where c.user_id = $1
        and m.kind in ('first', 'follow_up')) as r
where position <= $2
order by campaign_id, id desc
