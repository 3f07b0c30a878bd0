-- Load one account by primary key.
select id, email, first_name, last_name, account_status, subscription_status, subscription_plan,
    email_limit, subscription_ends_at, created_at, postal_address
from users where id = $1
