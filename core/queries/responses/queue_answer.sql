-- An answer leaves the approval queue: queued as message $3 (its text as sent), automatically or by the user.
update reply_answers set status = 'queued', message_id = $3, subject = $4, body = $5, decided_at = $6
where id = $1 and user_id = $2 and status = 'awaiting_approval'
