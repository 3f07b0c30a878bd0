-- The user puts a sender taken out back into rotation (a no-op for another user's id or a removed sender).
update email_configs set out_at = null, out_reason = null, failure_streak = 0, updated_at = $3
where id = $1 and user_id = $2 and removed_at is null and out_at is not null
