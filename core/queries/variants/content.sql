-- One variant's subject and body, for the template's owner (primary key).
select v.subject, v.body from template_variants v join email_templates t on t.id = v.template_id
where v.template_id = $1 and v.step = $2 and v.variant = $3 and t.user_id = $4
