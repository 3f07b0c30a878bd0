insert into contact_notes (user_id, email, body, created_at, updated_at) values ($1, $2, $3, $4, $4)
returning id, body, created_at, updated_at
