-- One of a user's messages with its body (the email dialog of B §2.10); another user's id finds nothing.
select m.id, m.campaign_id, m.business_id, m.kind, m.step, m.to_email, m.subject, m.html_body,
    case when m.status = 'queued' and exists (select 1 from send_claims c where c.message = m.id)
        then 'sending' else m.status end as status,
    m.sent_at, m.created_at, m.opened_at, m.replied_at, m.delivered_at, m.clicked_at, m.bounced_at, m.bounce_reason,
    m.spam_reported_at, m.unsubscribed_at, m.token
from sent_emails m where m.id = $1 and m.user_id = $2 and not m.is_test
