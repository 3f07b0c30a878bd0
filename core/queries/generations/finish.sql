-- The job's outcome: done with a result, or failed with an error. Only a pending request is finished.
update email_generations set status = $2, result = $3, error = $4, finished_at = $5 where id = $1 and status = 'pending'
