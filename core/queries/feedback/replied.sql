-- The prospect answered (the first answer's time counts).
update sent_emails set replied_at = coalesce(replied_at, $2),
    status = case when status in ('sent', 'delivered', 'opened') then 'replied' else status end
where id = $1
