-- A message whose content was under way when its answer stopped coming, or its worker died: it may have arrived, so
-- it is never sent again and keeps its claim; failed, shown as uncertain. Primary key.
update sent_emails set status = 'failed', uncertain = true, error = $2, provider = coalesce($3, provider)
where id = $1 and status = 'sending'
returning campaign_id
