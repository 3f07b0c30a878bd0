-- When a campaign's ($1) next sending job waiting for a later time runs (unix seconds; its run time is after $2,
-- unix seconds): mail held by the sending window or a sender's pace. A payload that is not JSON is passed over.
select cast(extract(epoch from min(run_at)) as bigint) from apalis.jobs
where job_type = 'SendCampaignEmail' and status in ('Pending', 'Queued') and run_at > to_timestamp($2)
    and cast(outreach_job_json(job) ->> 'campaign_id' as bigint) = $1
