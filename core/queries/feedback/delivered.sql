-- The receiving server accepted the message (the first time counts).
update sent_emails set delivered_at = coalesce(delivered_at, $2),
    status = case when status = 'sent' then 'delivered' else status end
where id = $1
