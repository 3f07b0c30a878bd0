-- A user's sent emails, newest first (B §3 Sent email), a page at a time; test sends are not campaign mail.
select m.id, m.campaign_id, m.business_id, m.kind, m.step, m.to_email, m.subject, m.html_body, m.status, m.sent_at, m.created_at,
    m.opened_at, m.replied_at, m.delivered_at, m.clicked_at, m.bounced_at, m.bounce_reason, m.spam_reported_at,
    m.unsubscribed_at, m.token
from sent_emails m where m.user_id = $1 and m.sent_at is not null and not m.is_test
order by m.sent_at desc, m.id desc limit $2 offset $3
