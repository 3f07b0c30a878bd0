-- Deletes an owner's automation (its campaign, emails and run records stay).
delete from automations where id = $1 and user_id = $2
