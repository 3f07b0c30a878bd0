-- A message whose content was under way when its answer stopped coming, or its worker died: it may have arrived, so
-- it is never sent again and keeps its claim on the day counters; failed, shown as uncertain, with the Message-ID it
-- went out with (a reply to it is still recognised) and when it was claimed (the day its failure counts on). Its
-- claim row goes next, in the same transaction. Primary keys.
update sent_emails set status = 'failed', uncertain = true, error = $2, provider = coalesce($3, provider),
    message_id = coalesce((select message_id from send_handovers where message = $1), message_id),
    claimed_at = (select c.claimed_at from send_claims c where c.message = $1)
where id = $1 and status = 'queued' and exists (select 1 from send_claims c where c.message = $1)
returning campaign_id
