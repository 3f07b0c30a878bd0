-- A message's events, oldest first (index email_events_token).
select kind, url, is_machine, occurred_at from email_events where token = $1 order by id
