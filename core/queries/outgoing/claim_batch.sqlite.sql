-- Claims the batch's messages (ids as a JSON array) that are still queued and unclaimed, under the worker's lease: a
-- row of `send_claims` each (the message's own row is left alone); the first write of the claim's transaction.
insert into send_claims (message, claimed_by, claimed_at)
select m.id, $3, $2 from sent_emails m
where m.id in (select value from json_each($1)) and m.status = 'queued'
on conflict (message) do nothing
returning message
