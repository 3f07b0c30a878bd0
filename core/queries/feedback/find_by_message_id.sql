-- The sent message a provider event or a reply names by its Message-ID ($2, without angle brackets), found by its
-- local part ($1), which is the message's token (`sending::compose`), through `sent_emails_token`; the whole ID
-- must match.
select id, user_id, campaign_id, business_id, config_id, to_email, token, status from sent_emails
where token = $1 and message_id = $2
