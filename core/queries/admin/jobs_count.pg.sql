-- How many jobs the filter of admin/jobs_list matches.
select count(*) from apalis.jobs where ($1 = '' or job_type = $1) and ($2 = '' or status = $2)
