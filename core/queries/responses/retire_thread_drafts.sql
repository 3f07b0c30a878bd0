-- The user answered the thread by hand: the drafts still waiting for approval in it are retired, so one click can
-- never send a second answer.
update reply_answers set status = 'discarded', why = 'answered by hand', decided_at = $3
where thread_id = $1 and user_id = $2 and status = 'awaiting_approval'
