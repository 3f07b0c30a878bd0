-- A relaunch after a stop: the campaign's ($1) first emails to these businesses (ids as a JSON array $2) that the
-- stop skipped ($3: its reason) go back to the queue, written with the relaunch's template ($4).
update sent_emails set status = 'queued', error = null, template_id = $4
where campaign_id = $1 and kind = 'first' and step = 0 and status = 'skipped' and error = $3
    and business_id in (select cast(value as bigint) from jsonb_array_elements_text(cast($2 as jsonb)))
returning id
