-- Sets when an owner's template's follow-ups are due.
update email_templates set follow_up_timing = $3, updated_at = $4 where id = $1 and user_id = $2
