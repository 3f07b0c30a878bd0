-- Messages left in sending by a worker that is gone (its lease expired, or, for claims made before leases, claimed
-- before $1), with how far each got (index sent_emails_sending, then each one's hand-over by primary key).
select m.id, m.claimed_by, h.handed_by, h.handed_seq from sent_emails m
    left join send_handovers h on h.message = m.id
where m.status = 'sending'
    and case when m.claimed_by is null then m.claimed_at < $1
        else m.claimed_by not in (select worker from send_leases where expires_at >= $2) end
