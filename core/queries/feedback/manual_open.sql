-- The user marked the message opened (a manual open, shown as such).
insert into email_events (token, kind, url, user_agent, is_machine, occurred_at) values ($1, 'open', null, 'manual', false, $2)
