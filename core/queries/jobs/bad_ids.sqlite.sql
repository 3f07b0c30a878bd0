-- Rows of a job kind ($1) not done whose id is not a ULID, as apalis writes them (it cannot read such a row, so no
-- worker ever takes it): written by hand or by another tool.
select id, job from Jobs
where job_type = $1 and status in ('Pending', 'Queued', 'Running')
    and (length(id) <> 26 or id glob '*[^0-9A-HJKMNP-TV-Z]*')
