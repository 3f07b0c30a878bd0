-- An automation ran (or ended for good, with why).
update automations set last_run_at = $2, ended_reason = coalesce(cast($3 as text), ended_reason),
    is_active = case when cast($3 as text) is null then is_active else false end
where id = $1
