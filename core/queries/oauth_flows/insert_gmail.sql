-- A Gmail connection that went to Google: the user and the sender identity to save when Google answers.
insert into oauth_flows (state, pkce_verifier, created_at, user_id, gmail_address, sender_name, reply_to,
    gmail_read)
values ($1, $2, $3, $4, $5, $6, $7, $8)
