-- Sign-in: create the account (inactive until activated) or refresh the profile. Unique index on email.
insert into users (email, first_name, last_name, created_at, updated_at, last_login_at)
values ($1, $2, $3, $4, $4, $4)
on conflict (email) do update set
    first_name = coalesce(excluded.first_name, users.first_name),
    last_name = coalesce(excluded.last_name, users.last_name),
    updated_at = excluded.updated_at,
    last_login_at = excluded.last_login_at
returning id, email, first_name, last_name, account_status, subscription_status, subscription_plan,
    email_limit, subscription_ends_at, created_at, postal_address
