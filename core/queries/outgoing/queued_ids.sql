-- A campaign's messages still to send (queued, no claim), oldest first.
select id from sent_emails m
where campaign_id = $1 and status = 'queued' and not exists (select 1 from send_claims c where c.message = m.id)
order by id
