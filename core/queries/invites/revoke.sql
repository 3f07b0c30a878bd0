-- Revokes an invite code that was not redeemed.
update invite_codes set revoked_at = $2 where code = $1 and redeemed_at is null and revoked_at is null
