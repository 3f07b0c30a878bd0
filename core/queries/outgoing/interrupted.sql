-- Messages left in sending by a worker that is gone (its lease expired, or, for claims made before leases, claimed
-- before $1), with how far each got (index sent_emails_sending).
select id, claimed_by, handed_by, handed_seq from sent_emails
where status = 'sending'
    and case when claimed_by is null then claimed_at < $1
        else claimed_by not in (select worker from send_leases where expires_at >= $2) end
