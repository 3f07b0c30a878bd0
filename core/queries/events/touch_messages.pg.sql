-- The messages of a batch of tracking events (tokens as a JSON array) take their first human open and first click
-- (a click is an open too); machine opens count for neither. Their state moves to opened (B §4). The rows are
-- locked in id order first, so two batches written at once touching the same messages wait instead of deadlocking.
with locked as (
    select id from sent_emails where token in (select value from jsonb_array_elements_text(cast($1 as jsonb)))
    order by id for update
)
update sent_emails set
    opened_at = coalesce(opened_at, (select min(e.occurred_at) from email_events e where e.token = sent_emails.token
        and ((e.kind = 'open' and not e.is_machine) or e.kind = 'click'))),
    clicked_at = coalesce(clicked_at, (select min(e.occurred_at) from email_events e where e.token = sent_emails.token
        and e.kind = 'click')),
    status = case when status in ('sent', 'delivered') and exists (select 1 from email_events e
        where e.token = sent_emails.token and ((e.kind = 'open' and not e.is_machine) or e.kind = 'click'))
        then 'opened' else status end
where id in (select id from locked)
