-- A prospect who replied gets no more follow-ups of that campaign, nor an answer still waiting to an earlier reply.
update sent_emails set status = 'skipped', error = 'The prospect replied'
where campaign_id = $1 and business_id = $2 and kind in ('follow_up', 'answer') and status = 'queued'
