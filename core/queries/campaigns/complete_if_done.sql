-- A sending campaign with nothing queued or being sent is completed.
update campaigns set status = 'completed', status_reason = null, updated_at = $2
where id = $1 and status in ('active', 'paused')
    and not exists (select 1 from sent_emails where campaign_id = $1 and status = 'queued')
