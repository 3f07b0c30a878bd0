-- The events of a page of messages (tokens as a JSON array), oldest first, by when they happened: the tracking
-- endpoints' batches are written side by side (PostgreSQL), so ids need not follow the events' times. Each message
-- by its token's index, its events by the index of their message's id.
select m.token, e.kind, e.url, e.user_agent, e.is_machine, e.occurred_at
from sent_emails m join email_events e on e.message = m.id
where m.token in (select value from jsonb_array_elements_text(cast($1 as jsonb))) order by e.occurred_at, e.id
