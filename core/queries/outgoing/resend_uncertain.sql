-- The user sends a campaign's ($1) emails in doubt again, warned that some may have arrived: each goes back to the
-- queue as it was written (it keeps its count on the day it was first claimed; its new claim counts again).
update sent_emails set status = 'queued', uncertain = false, error = null
where campaign_id = $1 and status = 'failed' and uncertain
