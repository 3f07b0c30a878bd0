-- Makes one of a user's configurations the default and the others not (a no-op for another user's id).
update email_configs set is_default = (id = $2), updated_at = $3
where user_id = $1 and exists (select 1 from email_configs where id = $2 and user_id = $1)
