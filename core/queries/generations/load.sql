-- The job's view of a generation (primary key).
select id, user_id, status, request, result, error from email_generations where id = $1
