-- A row that cannot be read fails for good with why, as apalis records a failure, and with no attempt left (a failed
-- row with attempts left is fetched again as a retry). Primary key.
update apalis.jobs set status = 'Failed', attempts = max_attempts, last_result = jsonb_build_object('Err', $2::text), done_at = to_timestamp($3),
    lock_by = null, lock_at = null
where id = $1
