-- One user for the console, with the emails they sent in the quota window (primary key).
select u.id, u.email, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name, u.account_status,
    u.subscription_status, u.subscription_plan, u.email_limit, u.subscription_ends_at, u.last_login_at, u.created_at,
    (select cast(coalesce(sum(c.sent), 0) as bigint) from send_counters c
        where c.scope = 'user' and c.scope_id = u.id and c.day > $2) as emails_used
from users u where u.id = $1
