-- Stopping a campaign: its messages still queued are skipped with the reason (one being sent, with a claim,
-- finishes). On PostgreSQL `outgoing/lock_queued` locked them first in the transaction: a claim only locks a
-- message's row, and an update that waited for that lock would not look at the claims again.
update sent_emails set status = 'skipped', error = $2
where campaign_id = $1 and status = 'queued'
    and not exists (select 1 from send_claims c where c.message = sent_emails.id)
