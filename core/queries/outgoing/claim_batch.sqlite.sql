-- Claims the batch's messages (ids as a JSON array) that are still queued, under the worker's lease; the first
-- write of the claim's transaction.
update sent_emails set status = 'sending', claimed_at = $2, claimed_by = $3
where id in (select value from json_each($1)) and status = 'queued'
returning id
