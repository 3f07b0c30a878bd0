-- The events of a page of messages (tokens as a JSON array), oldest first.
select token, kind, url, user_agent, is_machine, occurred_at from email_events
where token in (select value from jsonb_array_elements_text(cast($1 as jsonb))) order by id
