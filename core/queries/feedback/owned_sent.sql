-- One of a user's sent messages, as events find it, with its first open.
select id, user_id, campaign_id, business_id, to_email, token, status, opened_at from sent_emails
where id = $1 and user_id = $2 and sent_at is not null
