-- A person's open or click moves its message's first open and first click (the earliest wins, whatever order the
-- events are written in; a click is an open too) and its state to opened (B §4); machine opens move nothing. The
-- tracking writer did this in a second statement that read every stored event of the batch's messages; as a trigger
-- a batch is one statement, stored whole or not at all, and a message an event changes nothing of is not rewritten.
create trigger email_events_first_times after insert on email_events
when new.kind = 'click' or (new.kind = 'open' and not new.is_machine)
begin
    update sent_emails set
        opened_at = min(coalesce(opened_at, new.occurred_at), new.occurred_at),
        clicked_at = case when new.kind = 'click' then min(coalesce(clicked_at, new.occurred_at), new.occurred_at)
            else clicked_at end,
        status = case when status in ('sent', 'delivered') then 'opened' else status end
    where token = new.token
        and (opened_at is null or opened_at > new.occurred_at or status in ('sent', 'delivered')
            or (new.kind = 'click' and (clicked_at is null or clicked_at > new.occurred_at)));
end;
