-- Before a campaign's queued messages are skipped (`outgoing/stop`): locks them as a claim does, so that the skip,
-- a statement of its own after this one, sees every claim made before (index sent_emails_campaign_status).
select id from sent_emails where campaign_id = $1 and status = 'queued' for no key update
