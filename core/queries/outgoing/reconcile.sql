-- Messages left in sending by a worker that is gone (its lease expired, or, for claims made before leases, claimed
-- before $1): the provider may have taken them, so they are never sent again; they are marked failed with the
-- reason, for the user to decide. Returns their campaigns, to finish them (index sent_emails_sending).
update sent_emails set status = 'failed',
    error = 'Interrupted while sending; not retried automatically in case it was delivered'
where status = 'sending'
    and case when claimed_by is null then claimed_at < $1
        else claimed_by not in (select worker from send_leases where expires_at >= $2) end
returning campaign_id
