-- The events of a page of messages (tokens as a JSON array), oldest first, by when they happened: the tracking
-- endpoints' batches are written side by side (PostgreSQL), so ids need not follow the events' times.
select token, kind, url, user_agent, is_machine, occurred_at from email_events
where token in (select value from jsonb_array_elements_text(cast($1 as jsonb))) order by occurred_at, id
