-- A prospect who replied gets no more follow-ups of that campaign, nor an answer still waiting to an earlier reply
-- (one being sent, with a claim, finishes; on PostgreSQL `feedback/lock_follow_ups` locked them first, as
-- `outgoing/stop` says why).
update sent_emails set status = 'skipped', error = 'The prospect replied'
where campaign_id = $1 and business_id = $2 and kind in ('follow_up', 'answer') and status = 'queued'
    and not exists (select 1 from send_claims c where c.message = sent_emails.id)
