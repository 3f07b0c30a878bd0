-- Deletes an owner's campaign (its education files go with it).
delete from campaigns where id = $1 and user_id = $2
