-- Claims the batch's messages (ids as a JSON array) that are still queued and unclaimed, under the worker's lease: a
-- row of `send_claims` each (the message's own row is left alone). Primary keys: with `status = 'queued'` as a
-- plain test, the planner read every queued message through an index that holds `status` whenever its statistics
-- said there were few (20,000 rows for a claim of 200); as `is true` no index can serve the test. `for no key
-- update` locks the messages read: a claim that began while another transaction's sent mark (status set, claim
-- deleted) waits to commit reads the message again after it, instead of claiming a message just sent; and the
-- writers that take queued messages out of the queue lock them first (`outgoing/lock_queued`).
insert into send_claims (message, claimed_by, claimed_at)
select m.id, $3, $2 from sent_emails m
where m.id = any(array(select cast(value as bigint) from jsonb_array_elements_text(cast($1 as jsonb))))
    and (m.status = 'queued') is true
for no key update of m
on conflict (message) do nothing
returning message
