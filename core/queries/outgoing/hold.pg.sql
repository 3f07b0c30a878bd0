-- Messages that wait (ids as a JSON array), still queued, with why (shown in the campaign's progress).
update sent_emails set error = $2
where id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and status = 'queued'
