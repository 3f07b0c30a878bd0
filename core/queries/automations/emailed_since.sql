-- First emails of an automation's campaign ($1) written since $2 and not given up (skipped or failed): what its
-- runs of the day took of its daily number (index sent_emails_campaign_status).
select count(*) from sent_emails
where campaign_id = $1 and kind = 'first' and created_at >= $2 and status not in ('skipped', 'failed')
