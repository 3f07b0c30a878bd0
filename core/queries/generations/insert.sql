-- A request to write an email, waiting for its GenerateEmail job.
insert into email_generations (user_id, request, created_at) values ($1, $2, $3) returning id
