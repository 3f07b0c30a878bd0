-- Messages left in sending by a crashed worker: the provider may have taken them, so they are never sent again;
-- they are marked failed with the reason, for the user to decide.
update sent_emails set status = 'failed',
    error = 'Interrupted while sending; not retried automatically in case it was delivered'
where status = 'sending' and claimed_at < $1
