-- Every message of a user to one address, oldest first (index sent_emails_user_to_email).
select m.id, m.campaign_id, m.business_id, m.kind, m.step, m.to_email, m.subject, m.html_body,
    case when m.status = 'queued' and exists (select 1 from send_claims c where c.message = m.id)
        then 'sending' else m.status end as status,
    m.sent_at, m.created_at, m.opened_at, m.replied_at, m.delivered_at, m.clicked_at, m.bounced_at, m.bounce_reason,
    m.spam_reported_at, m.unsubscribed_at, m.token
from sent_emails m where m.user_id = $1 and m.to_email = $2 and not m.is_test
order by m.created_at, m.id
