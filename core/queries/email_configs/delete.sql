-- Removes one of a user's configurations.
delete from email_configs where id = $1 and user_id = $2
