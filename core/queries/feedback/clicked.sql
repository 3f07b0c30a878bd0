-- A link in the message was followed (the first time counts); a click implies an open.
update sent_emails set clicked_at = coalesce(clicked_at, $2), opened_at = coalesce(opened_at, $2),
    status = case when status in ('sent', 'delivered') then 'opened' else status end
where id = $1
