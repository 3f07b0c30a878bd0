-- Stopping a campaign: its messages still queued are skipped with the reason (one being sent finishes).
update sent_emails set status = 'skipped', error = $2 where campaign_id = $1 and status = 'queued'
