-- One event of a message, named by its token (provider events, replies, bounces).
insert into email_events (token, kind, url, user_agent, is_machine, occurred_at) values ($1, $2, $3, null, false, $4)
