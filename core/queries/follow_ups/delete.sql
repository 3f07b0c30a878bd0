-- Deletes an owner's follow-up.
delete from follow_up_templates where id = $1 and user_id = $2
