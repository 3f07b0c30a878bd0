-- Single use: only an unredeemed, unrevoked code is claimed (unique index on code).
update invite_codes set redeemed_by = $2, redeemed_at = $3
where code = $1 and redeemed_by is null and revoked_at is null
returning id
