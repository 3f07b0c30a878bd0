-- Invite codes, newest first, with who redeemed them and whether they were revoked.
select i.id, i.code, i.note, i.created_at, i.redeemed_at, u.email as redeemed_by_email, i.revoked_at
from invite_codes i left join users u on u.id = i.redeemed_by
order by i.id desc
