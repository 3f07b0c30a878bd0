-- The user discards a draft waiting for approval.
update reply_answers set status = 'discarded', decided_at = $3
where id = $1 and user_id = $2 and status = 'awaiting_approval'
