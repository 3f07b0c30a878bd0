-- SQLite has one writer at a time: the stop's statement is serialised with the claims already (not run).
select id from sent_emails where campaign_id = $1 and status = 'queued'
