-- A prospect who replied gets no more follow-ups of that campaign.
update sent_emails set status = 'skipped', error = 'The prospect replied'
where campaign_id = $1 and business_id = $2 and step > 0 and status = 'queued'
