-- Writes an owner's follow-up.
update follow_up_templates set name = $3, subject = $4, body = $5, objective = $6, tone = $7, sequence_number = $8,
    delay_days = $9, is_active = $10, updated_at = $11
where id = $1 and user_id = $2
