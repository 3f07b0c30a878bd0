-- The user edits a draft waiting for approval.
update reply_answers set subject = $3, body = $4 where id = $1 and user_id = $2 and status = 'awaiting_approval'
