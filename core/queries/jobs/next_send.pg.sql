-- A campaign's ($1) next sending job waiting for a later time (its run time is after $2, unix seconds): when it runs
-- (unix seconds) and its key, which names what holds it (the sending window, a sender's pace or daily cap, the
-- monthly limit). A payload that is not JSON is passed over.
select cast(extract(epoch from run_at) as bigint), idempotency_key from apalis.jobs
where job_type = 'SendCampaignEmail' and status in ('Pending', 'Queued') and run_at > to_timestamp($2)
    and cast(outreach_job_json(job) ->> 'campaign_id' as bigint) = $1
order by run_at
limit 1
