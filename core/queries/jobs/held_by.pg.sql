-- The rows a queue worker had fetched and not finished (lock_by is indexed by apalis).
select id, job from apalis.jobs where lock_by = $1 and status in ('Queued', 'Running')
