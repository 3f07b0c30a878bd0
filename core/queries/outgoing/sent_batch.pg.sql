-- The provider accepted these messages: one statement for a batch, as arrays of equal length (ids, subjects, HTML
-- and text bodies, Message-IDs, providers); their claims go in the same statement, after their rows are locked (the
-- order a claim takes them). Only claimed messages: one that recovery gave back to the queue is not marked.
-- Primary keys: the ids also as an array the planner cannot see into (an init plan), and the status test as `is
-- true`, which no index can serve (see claim_batch.pg.sql): joined with the batch's 200 rows alone, the planner read
-- the whole queue (a sequential scan of 10,000 messages looked cheaper than 200 lookups), which the status index of
-- messages in sending had kept it from before claims had a table of their own.
-- Arrays, not a JSON document: the server takes bound arrays as they are, where it parsed a JSON document of the
-- batch's bodies into JSONB first (about 12 us a message).
with sent as (
    update sent_emails m set status = 'sent', sent_at = $7, subject = d.subject, html_body = d.html, text_body = d.text,
        message_id = d.message_id, provider = d.provider, error = null
    from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
        as d (id, subject, html, text, message_id, provider)
    where m.id = any(array(select unnest($1::bigint[]))) and m.id = d.id and (m.status = 'queued') is true
        and exists (select 1 from send_claims c where c.message = m.id)
    returning m.id
)
delete from send_claims where message in (select id from sent)
