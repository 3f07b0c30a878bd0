-- A campaign's messages still to send, oldest first.
select id from sent_emails where campaign_id = $1 and status = 'queued' order by id
