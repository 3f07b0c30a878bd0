-- One follow-up of its owner (primary key).
select id, main_template_id, name, subject, body, objective, tone, sequence_number, delay_days, is_active, created_at, updated_at
from follow_up_templates where id = $1 and user_id = $2
