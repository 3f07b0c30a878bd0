-- A new follow-up of a template; nothing when its position is taken (unique index follow_up_templates_position).
insert into follow_up_templates (main_template_id, user_id, name, subject, body, objective, tone, sequence_number,
    delay_days, is_active, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
on conflict (main_template_id, sequence_number) do nothing
returning id
