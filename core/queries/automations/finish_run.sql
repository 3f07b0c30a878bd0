-- A run ends with what it did.
update automation_runs set status = $2, businesses_found = $3, businesses_targeted = $4, emails_queued = $5,
    report = $6, error = $7, finished_at = $8
where id = $1 and status = 'running'
