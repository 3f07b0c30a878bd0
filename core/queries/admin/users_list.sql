-- Users for the console, a page in the order asked: `$1` a lowercase `%text%` over email and name ('' for all), `$2`
-- one of waiting, trial, premium, expired, administrators ('' for all; administrators are the comma-separated `$3`),
-- with the emails each sent in the quota window (send_counters after day `$6`).
select u.id, u.email, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name, u.account_status,
    u.subscription_status, u.subscription_plan, u.email_limit, u.subscription_ends_at, u.last_login_at, u.created_at,
    (select cast(coalesce(sum(c.sent), 0) as bigint) from send_counters c
        where c.scope = 'user' and c.scope_id = u.id and c.day > $6) as emails_used
from users u
where ($1 = '' or lower(u.email) like $1 or lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like $1)
    and ($2 = ''
        or ($2 = 'waiting' and u.account_status = 'inactive')
        or ($2 = 'trial' and u.subscription_status = 'trial')
        or ($2 = 'premium' and u.subscription_plan = 'premium' and u.subscription_status = 'active')
        or ($2 = 'expired' and u.subscription_status = 'expired')
        or ($2 = 'administrators' and (',' || $3 || ',') like ('%,' || u.email || ',%')))
order by {order}
limit $4 offset $5
