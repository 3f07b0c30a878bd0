-- A page of one campaign's first emails and follow-ups (answers have figures of their own) in the order they were
-- queued, with their business (index sent_emails_campaign_id). The caller has checked the campaign is the user's.
select m.id, m.to_email,
    case when m.status = 'queued' and exists (select 1 from send_claims c where c.message = m.id)
        then 'sending' else m.status end as status,
    m.subject, m.sent_at, m.delivered_at, m.opened_at, m.clicked_at, m.replied_at,
    m.bounced_at, m.bounce_reason, m.spam_reported_at, m.unsubscribed_at, m.token, m.error, m.step, m.uncertain,
    (select h.reason from follow_up_stops h where h.campaign_id = m.campaign_id and h.business_id = m.business_id)
        as follow_ups_stopped,
    (select c.interest from contacts c where c.user_id = m.user_id and c.email = m.to_email) as interest,
    b.name as business_name,
    b.address as business_address, b.phone as business_phone, b.website as business_website
from sent_emails m left join businesses b on b.id = m.business_id
where m.campaign_id = $1 and m.kind in ('first', 'follow_up')
order by m.id limit $2 offset $3
