-- When a campaign's ($1) next sending job waiting for a later time runs (unix seconds; its run time is after $2,
-- unix seconds): mail held by the sending window or a sender's pace. A payload that is not JSON is passed over.
select min(run_at) from Jobs
where job_type = 'SendCampaignEmail' and status in ('Pending', 'Queued') and run_at > $2
    and json_valid(cast(job as text)) and json_extract(cast(job as text), '$.campaign_id') = $1
