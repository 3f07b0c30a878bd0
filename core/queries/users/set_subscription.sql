-- Activate an account with a plan (admin grant, invite redemption, administrator sign-in), creating it if the
-- person has not signed in yet. Unique index on email.
insert into users (email, account_status, subscription_status, subscription_plan, email_limit, subscription_ends_at,
    created_at, updated_at)
values ($1, 'active', $2, $3, $4, $5, $6, $6)
on conflict (email) do update set
    account_status = 'active',
    subscription_status = excluded.subscription_status,
    subscription_plan = excluded.subscription_plan,
    email_limit = excluded.email_limit,
    subscription_ends_at = excluded.subscription_ends_at,
    updated_at = excluded.updated_at
returning id, email, first_name, last_name, account_status, subscription_status, subscription_plan,
    email_limit, subscription_ends_at, created_at, postal_address
