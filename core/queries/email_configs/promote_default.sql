-- After a removal: the oldest remaining configuration becomes the default when none is.
update email_configs set is_default = true
where id = (select min(id) from email_configs where user_id = $1 and removed_at is null)
    and not exists (select 1 from email_configs where user_id = $1 and is_default)
