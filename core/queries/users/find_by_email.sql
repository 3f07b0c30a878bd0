-- Admin lookup by email (unique index on email).
select id, email, first_name, last_name, account_status, subscription_status, subscription_plan,
    email_limit, subscription_ends_at, created_at, postal_address
from users where email = $1
