-- Why messages failed, for the test-send answers.
select error from sent_emails where id = $1 and status = 'failed' and error is not null
