-- A hard bounce or spam report: the user never sends to the address again.
insert into suppressions (user_id, email, reason, created_at) values ($1, $2, $3, $4)
on conflict (user_id, email) do nothing
