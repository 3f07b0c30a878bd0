-- A user's notes on one contact, oldest first.
select id, body, created_at, updated_at from contact_notes where user_id = $1 and email = $2 order by created_at, id
