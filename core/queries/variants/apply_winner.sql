-- The campaign's messages of a step still waiting (not claimed by a send under way) take the winning variant
-- (index sent_emails_campaign_status).
update sent_emails set variant = $3
where campaign_id = $1 and status = 'queued' and step = $2 and kind in ('first', 'follow_up') and variant <> $3
    and not exists (select 1 from send_claims c where c.message = sent_emails.id)
