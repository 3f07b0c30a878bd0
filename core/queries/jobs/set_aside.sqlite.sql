-- A row that cannot be read fails for good with why, as apalis records a failure, and with no attempt left (a failed
-- row with attempts left is fetched again as a retry). Primary key.
update Jobs set status = 'Failed', attempts = max_attempts, last_result = json_object('Err', $2), done_at = $3, lock_by = null, lock_at = null
where id = $1
