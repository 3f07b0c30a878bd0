-- Changes a user's monthly email limit.
update users set email_limit = $2, updated_at = $3 where id = $1 and email_limit <> $2
