-- The campaigns with messages waiting on a sender (follow-ups and answers threaded on it; index
-- sent_emails_config_recent).
select distinct campaign_id from sent_emails
where config_id = $1 and status = 'queued' and campaign_id is not null and not pooled
