-- A message's events (index email_events_message), oldest first by when they happened: the tracking endpoints'
-- batches are written side by side (PostgreSQL), so ids need not follow the events' times.
select kind, url, is_machine, occurred_at from email_events
where message = (select id from sent_emails where token = $1) order by occurred_at, id
