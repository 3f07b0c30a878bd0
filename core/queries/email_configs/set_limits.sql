-- A sender's daily cap and ramp-up (a no-op for another user's id).
update email_configs set daily_cap = $3, ramp_up = $4, ramp_start = $5, ramp_step = $6, updated_at = $7
where id = $1 and user_id = $2 and removed_at is null
