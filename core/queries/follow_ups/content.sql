-- Follow-up n of a template, when the template is the user's.
select f.subject, f.body from follow_up_templates f join email_templates t on t.id = f.main_template_id
where f.main_template_id = $1 and f.sequence_number = $2 and t.user_id = $3
