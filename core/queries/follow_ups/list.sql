-- A template's follow-ups in sequence order (index follow_up_templates_position).
select id, main_template_id, name, subject, body, objective, tone, sequence_number, delay_days, is_active, created_at, updated_at
from follow_up_templates where main_template_id = $1 and user_id = $2
order by sequence_number, id
