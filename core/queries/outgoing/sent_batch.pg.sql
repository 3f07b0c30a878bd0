-- The provider accepted these messages: one statement for a batch, as arrays of equal length (ids, subjects, HTML
-- and text bodies, Message-IDs, providers); their claims go in the same statement, after their rows are locked (the
-- order a claim takes them). Only claimed messages: one that recovery gave back to the queue is not marked.
-- Primary keys, whatever the statistics: the arrays as init plans, whose length the planner cannot see (planned for
-- a batch of 200 it knew the length of, it read the whole queue: a sequential scan of 10,000 messages looked cheaper
-- than 200 lookups), each message looked up for its row of the batch, and each row's claim on its own, as a scalar
-- subquery (joined with the batch, the planner read every claim, which churn fills with dead rows between two
-- vacuums).
-- Arrays, not a JSON document: the server takes bound arrays as they are, where it parsed a JSON document of the
-- batch's bodies into JSONB first (about 12 us a message).
with sent as (
    update sent_emails m set status = 'sent', sent_at = $7, subject = d.subject, html_body = d.html, text_body = d.text,
        message_id = d.message_id, provider = d.provider, error = null
    from unnest((select $1::bigint[]), (select $2::text[]), (select $3::text[]), (select $4::text[]),
            (select $5::text[]), (select $6::text[]))
        as d (id, subject, html, text, message_id, provider)
    where m.id = d.id and d.id = (select c.message from send_claims c where c.message = d.id)
        and (m.status = 'queued') is true
    returning m.id
)
delete from send_claims where message in (select id from sent)
