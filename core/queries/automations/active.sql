-- Automations that run today (index automations_active).
select id from automations where is_active and ended_reason is null order by id
