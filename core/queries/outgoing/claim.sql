-- Claims a queued message for sending when the user's monthly quota (sent in the window, or being sent) and the
-- sender's daily cap both have room. One statement: concurrent claims serialise on the user's row lock
-- (PostgreSQL, taken first by users/lock) or on SQLite's single writer.
update sent_emails set status = 'sending', claimed_at = $2
where id = $1 and status = 'queued'
    and (select count(*) from sent_emails s
         where s.user_id = sent_emails.user_id and (s.sent_at >= $3 or s.status = 'sending')) < $4
    and (sent_emails.config_id is null or (select count(*) from sent_emails s
         where s.config_id = sent_emails.config_id and (s.sent_at >= $5 or s.status = 'sending')) < $6)
returning id
