-- A permanent failure: the message bounced, with the receiving server's reason.
update sent_emails set bounced_at = coalesce(bounced_at, $2), bounce_reason = $3, status = 'bounced' where id = $1
