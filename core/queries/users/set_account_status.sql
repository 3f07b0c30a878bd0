-- Activates or deactivates an account (no row when it already is).
update users set account_status = $2, updated_at = $3 where id = $1 and account_status <> $2
