-- A person's open or click moves its message's first open and first click (the earliest wins, whatever order the
-- events are written in; a click is an open too) and its state to opened (B §4); machine opens move nothing. The
-- tracking writer did this in a second statement that read every stored event of the batch's messages; as a trigger
-- a batch is one statement, stored whole or not at all, and a message the batch changes nothing of is not
-- rewritten. The rows to change are locked in id order first, so two batches written at once touching the same
-- messages wait instead of deadlocking.
create function email_events_first_times() returns trigger language plpgsql as $$
begin
    with firsts as (
        select token, min(occurred_at) as first_open, min(occurred_at) filter (where kind = 'click') as first_click
        from new_rows
        where kind = 'click' or (kind = 'open' and not is_machine)
        group by token
    ), locked as (
        select m.id, f.first_open, f.first_click
        from sent_emails m join firsts f on f.token = m.token
        where m.opened_at is null or m.opened_at > f.first_open or m.status in ('sent', 'delivered')
            or (f.first_click is not null and (m.clicked_at is null or m.clicked_at > f.first_click))
        order by m.id
        for update of m
    )
    update sent_emails m set
        opened_at = least(m.opened_at, l.first_open),
        clicked_at = least(m.clicked_at, l.first_click),
        status = case when m.status in ('sent', 'delivered') then 'opened' else m.status end
    from locked l
    where m.id = l.id;
    return null;
end $$;
create trigger email_events_first_times after insert on email_events
    referencing new table as new_rows for each statement execute function email_events_first_times();
