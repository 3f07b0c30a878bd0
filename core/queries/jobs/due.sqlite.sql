-- Jobs not finished, but for those scheduled after $1 (unix seconds): waiting, running or due for a retry. A job put
-- off by a window, a pace or a limit is not work there is now.
select count(*) from Jobs
where (status in ('Pending', 'Queued', 'Running') or (status = 'Failed' and attempts < max_attempts))
    and not (status = 'Pending' and run_at > $1)
