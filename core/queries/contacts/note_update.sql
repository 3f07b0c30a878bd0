-- Another user's note is not found.
update contact_notes set body = $3, updated_at = $4 where id = $1 and user_id = $2
returning id, body, created_at, updated_at
