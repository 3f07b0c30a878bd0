-- One generation of its owner (primary key).
select id, user_id, status, request, result, error from email_generations where id = $1 and user_id = $2
