-- A campaign's ($1) next sending job waiting for a later time (its run time is after $2, unix seconds): when it runs
-- (unix seconds) and its key, which names what holds it (the sending window, a sender's pace or daily cap, the
-- monthly limit). A payload that is not JSON is passed over.
select run_at, idempotency_key from Jobs
where job_type = 'SendCampaignEmail' and status in ('Pending', 'Queued') and run_at > $2
    and json_valid(cast(job as text)) and json_extract(cast(job as text), '$.campaign_id') = $1
order by run_at
limit 1
