-- Claims beyond the room the limits left go back to the queue, in the same transaction.
update sent_emails set status = 'queued', claimed_at = null, claimed_by = null
where id in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb)))
