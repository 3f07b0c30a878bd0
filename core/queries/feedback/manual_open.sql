-- The user marked the message opened (a manual open, shown as such).
insert into email_events (token, message, kind, url, user_agent, is_machine, occurred_at)
values ($1, (select id from sent_emails where token = $1), 'open', null, 'manual', false, $2)
