-- Claims the batch's messages (ids as a JSON array) that are still queued, under the worker's lease.
update sent_emails set status = 'sending', claimed_at = $2, claimed_by = $3
where id in (select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))) and status = 'queued'
returning id
