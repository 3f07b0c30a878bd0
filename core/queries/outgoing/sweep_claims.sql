-- Claims no way out of sending will come for: of messages deleted while they were in sending (a claim has no
-- foreign key, so that taking it reads no other row), or moved on meanwhile by what a provider reported (a bounce
-- of a message whose sent mark had not come yet). A claim being taken is not seen until its message's row, queued,
-- is locked and the claim committed.
delete from send_claims
where not exists (select 1 from sent_emails m where m.id = send_claims.message and m.status = 'queued')
