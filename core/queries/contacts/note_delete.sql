delete from contact_notes where id = $1 and user_id = $2
