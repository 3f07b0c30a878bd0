-- Why messages were not sent (failed, or skipped: the address unsubscribed, bounced or complained), for the test
-- sends' answers: the status, then the reason.
select status, error from sent_emails where id = $1 and status in ('failed', 'skipped') and error is not null
