-- Whether a campaign still has messages queued or being sent (index sent_emails_campaign_status): a send batch asks
-- after it ends, and while the answer is yes the campaign is not done, whatever its follow-ups.
select exists (select 1 from sent_emails where campaign_id = $1 and status = 'queued')
