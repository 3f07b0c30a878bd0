-- Messages left in sending by a worker that is gone (its lease expired, or, for claims made before leases, claimed
-- before $1), with how far each got (every claim, then each one's hand-over by primary key).
select c.message as id, c.claimed_by, h.handed_by, h.handed_seq from send_claims c
    left join send_handovers h on h.message = c.message
where case when c.claimed_by is null then c.claimed_at < $1
    else c.claimed_by not in (select worker from send_leases where expires_at >= $2) end
