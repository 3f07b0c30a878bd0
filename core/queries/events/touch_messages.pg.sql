-- The messages of a batch of tracking events (the batch's JSON array of [token, kind, url, user agent, time, machine])
-- take the batch's earliest human open and earliest click when they come before what they hold (a click is an open
-- too; machine opens, by their agent or within 10 s of sending, count for neither), and their state moves to opened
-- (B §4). Read from the batch, not from the message's stored events: a message opened a thousand times is not read
-- a thousand times, and a message the batch changes nothing of is not written. The rows to change are locked in id
-- order first, so two batches written at once touching the same messages wait instead of deadlocking.
with batch as (
    select e ->> 0 as token, e ->> 1 as kind, (e ->> 4)::bigint as occurred_at, (e ->> 5)::boolean as machine
    from jsonb_array_elements(cast($1 as jsonb)) as e
), firsts as (
    select m.id,
        min(b.occurred_at) filter (where b.kind = 'click' or (b.kind = 'open' and not b.machine
            and not coalesce(b.occurred_at - m.sent_at < 10000, false))) as first_open,
        min(b.occurred_at) filter (where b.kind = 'click') as first_click
    from batch b join sent_emails m on m.token = b.token
    group by m.id
), locked as (
    select m.id, f.first_open, f.first_click
    from sent_emails m join firsts f on f.id = m.id
    where f.first_open is not null
        and (m.opened_at is null or m.opened_at > f.first_open or m.status in ('sent', 'delivered')
            or (f.first_click is not null and (m.clicked_at is null or m.clicked_at > f.first_click)))
    order by m.id
    for update of m
)
update sent_emails m set
    opened_at = least(m.opened_at, l.first_open),
    clicked_at = least(m.clicked_at, l.first_click),
    status = case when m.status in ('sent', 'delivered') then 'opened' else m.status end
from locked l
where m.id = l.id
