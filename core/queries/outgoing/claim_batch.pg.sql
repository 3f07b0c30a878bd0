-- Claims the batch's messages (ids as a JSON array) that are still queued, under the worker's lease. Primary keys:
-- with `status = 'queued'` as a plain test, the planner read every queued message through an index that holds
-- `status` whenever its statistics said there were few, as they do just after a campaign queued its messages (20,000
-- rows for a claim of 200). As `is true` (the same for a column that is never null) no index can serve the test,
-- which leaves the ids' lookup in the primary key; a row another claim took meanwhile is still tested again.
update sent_emails set status = 'sending', claimed_at = $2, claimed_by = $3
where id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and (status = 'queued') is true
returning id
