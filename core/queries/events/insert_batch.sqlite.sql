-- One tracking event of a batch (SQLite writes in-process, so a loop in one transaction is as fast as one
-- statement); an open within 10 s of sending, or from a known proxy or scanner ($6), is a machine open.
insert into email_events (token, kind, url, user_agent, occurred_at, is_machine)
values ($1, $2, $3, $4, $5, $6 or coalesce((select $5 - m.sent_at < 10000 from sent_emails m where m.token = $1), false))
