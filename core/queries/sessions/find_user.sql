-- The account behind a live session (primary key of user_sessions, then of users).
select u.id, u.email, u.first_name, u.last_name, u.account_status, u.subscription_status, u.subscription_plan,
    u.email_limit, u.subscription_ends_at, u.created_at, u.postal_address
from user_sessions s join users u on u.id = s.user_id
where s.id_hash = $1 and s.expires_at > $2
