-- SQLite has one writer at a time: the skip's statement is serialised with the claims already (not run).
select id from sent_emails
where campaign_id = $1 and business_id = $2 and kind in ('follow_up', 'answer') and status = 'queued'
