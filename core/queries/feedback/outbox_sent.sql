-- One of a user's messages kept by the local outbox, for a reply typed in the app.
select id, user_id, campaign_id, business_id, config_id, to_email, token, status from sent_emails
where id = $1 and user_id = $2 and provider = 'outbox' and sent_at is not null
