-- The events of a page of messages (tokens as a JSON array), oldest first, by when they happened: the tracking
-- endpoints' batches are written side by side (PostgreSQL), so ids need not follow the events' times.
select token, kind, url, user_agent, is_machine, occurred_at from email_events
where token in (select value from json_each($1)) order by occurred_at, id
