-- Whether any user's sender already uses this address (basic addresses are unique on the sending domain).
select count(*) from email_configs where lower(send_from) = lower($1) and removed_at is null
