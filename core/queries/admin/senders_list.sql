-- Senders across users for the console: health (active, the last error, replies' error), the day's use of the cap
-- (send_counters of day `$5`), a page in the order asked, `$1` a lowercase `%text%` over the address and owner, `$2` a
-- provider ('' for all).
select e.id, u.email as user_email, e.provider, e.send_from, e.is_active, e.is_default, e.status_message,
    e.replies_error, e.daily_cap, e.created_at,
    (select cast(coalesce(sum(c.sent), 0) as bigint) from send_counters c
        where c.scope = 'config' and c.scope_id = e.id and c.day = $5) as used_today
from email_configs e join users u on u.id = e.user_id
where e.removed_at is null and ($1 = '' or lower(e.send_from) like $1 or lower(u.email) like $1)
    and ($2 = '' or e.provider = $2)
order by {order}
limit $3 offset $4
