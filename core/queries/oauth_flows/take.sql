-- The provider came back: consume the flow once (primary key), only if it is recent.
delete from oauth_flows where state = $1 and created_at > $2
returning pkce_verifier, invite_code, user_id, gmail_address, sender_name, reply_to, gmail_read
