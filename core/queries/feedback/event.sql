-- One event of a message, named by its token (provider events, replies, bounces).
insert into email_events (token, message, kind, url, user_agent, is_machine, occurred_at)
values ($1, (select id from sent_emails where token = $1), $2, $3, null, false, $4)
