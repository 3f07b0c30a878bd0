-- When a campaign's ($1) emails that a stopped worker held are settled: a worker renews its lease every third of a
-- lease, so one whose lease ends before $2 (a third of a lease from now) missed its renewals; its messages are
-- settled by how far each got when the lease ends. Null when no such worker holds any (claims first: few rows).
select min(l.expires_at) from send_claims c
    join send_leases l on l.worker = c.claimed_by
    join sent_emails m on m.id = c.message
where l.expires_at < $2 and m.campaign_id = $1
