-- A sign-in that went to the provider: its state, PKCE verifier and optional invite code.
insert into oauth_flows (state, pkce_verifier, invite_code, created_at) values ($1, $2, $3, $4)
