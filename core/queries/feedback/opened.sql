-- The message was opened (the first time counts).
update sent_emails set opened_at = coalesce(opened_at, $2),
    status = case when status in ('sent', 'delivered') then 'opened' else status end
where id = $1
