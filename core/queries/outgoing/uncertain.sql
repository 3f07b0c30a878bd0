-- A message whose content was under way when its answer stopped coming, or its worker died: it may have arrived, so
-- it is never sent again and keeps its claim; failed, shown as uncertain, with the Message-ID it went out with (a
-- reply to it is still recognised). Primary keys.
update sent_emails set status = 'failed', uncertain = true, error = $2, provider = coalesce($3, provider),
    message_id = coalesce((select message_id from send_handovers where message = $1), message_id)
where id = $1 and status = 'sending'
returning campaign_id
