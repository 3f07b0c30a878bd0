-- A user's messages kept by the local outbox (nothing left the machine), newest first.
select id, campaign_id, to_email, subject, html_body, text_body, status, sent_at, created_at, message_id, is_test
from sent_emails where user_id = $1 and provider = 'outbox'
order by id desc limit $2
