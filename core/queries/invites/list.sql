-- Invite codes, newest first, with who redeemed them.
select i.id, i.code, i.note, i.created_at, i.redeemed_at, u.email as redeemed_by_email
from invite_codes i left join users u on u.id = i.redeemed_by
order by i.id desc
