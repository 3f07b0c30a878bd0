-- A new follow-up of a template.
insert into follow_up_templates (main_template_id, user_id, name, subject, body, objective, tone, sequence_number,
    delay_days, is_active, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
returning id
