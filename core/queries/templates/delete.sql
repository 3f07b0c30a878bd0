-- Deletes an owner's template and its follow-ups.
delete from email_templates where id = $1 and user_id = $2
