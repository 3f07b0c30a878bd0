-- An invite code as the audit log keeps it (unique index on code).
select json_object('code', code, 'note', note, 'redeemedAt', redeemed_at, 'revokedAt', revoked_at)
from invite_codes where code = $1
