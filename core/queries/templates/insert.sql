-- A new template.
insert into email_templates (user_id, name, subject, body, objective, tone, email_signature, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
returning id
