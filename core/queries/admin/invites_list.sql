-- Invite codes for the console, a page in the order asked, `$1` a lowercase `%text%` over the code and the note ('' for
-- all), with who redeemed them and whether they were revoked; `$4` one invite's id (0 for any).
select i.id, i.code, i.note, i.created_at, i.redeemed_at, u.email as redeemed_by_email, i.revoked_at
from invite_codes i left join users u on u.id = i.redeemed_by
where ($1 = '' or lower(i.code) like $1 or lower(coalesce(i.note, '')) like $1) and ($4 = 0 or i.id = $4)
order by {order}
limit $2 offset $3
