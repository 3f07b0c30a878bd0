-- A new sign-in session; the id is stored hashed.
insert into user_sessions (id_hash, user_id, created_at, expires_at) values ($1, $2, $3, $4)
