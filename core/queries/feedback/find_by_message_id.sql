-- The sent message a provider event or a reply names by its Message-ID.
select id, user_id, campaign_id, business_id, to_email, token, status from sent_emails where message_id = $1
