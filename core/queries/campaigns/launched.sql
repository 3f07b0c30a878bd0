-- A launch makes the campaign active and names the template its queued mail was written with (the screens show it).
update campaigns set status = 'active', status_reason = null, waiting_for_senders = false, template_id = $2,
    updated_at = $3
where id = $1
