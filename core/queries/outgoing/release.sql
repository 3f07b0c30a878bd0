-- A claimed message its batch did not finish: never handed over, it goes back to the queue and gives its claim back;
-- handed over (the batch failed while its content was under way), it may have arrived: failed, uncertain, its claim
-- kept. Primary key.
update sent_emails set status = case when handed_by is null then 'queued' else 'failed' end,
    uncertain = handed_by is not null,
    error = case when handed_by is null then $2 else $3 end
where id = $1 and status = 'sending'
returning user_id, config_id, claimed_at, status
