-- Messages that wait (ids as a JSON array), still queued, with why (shown in the campaign's progress).
update sent_emails set error = $2 where id in (select value from json_each($1)) and status = 'queued'
