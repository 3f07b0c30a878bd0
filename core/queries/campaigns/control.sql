-- The user pauses, resumes or stops a campaign: its status, the reason shown, and whether it waits for the user.
update campaigns set status = $2, status_reason = $3, paused_by_user = $4, waiting_for_senders = false,
    updated_at = $5
where id = $1
