-- Writes an owner's template.
update email_templates set name = $3, subject = $4, body = $5, objective = $6, tone = $7, updated_at = $8
where id = $1 and user_id = $2
