-- One extra variant of a template's step.
insert into template_variants (template_id, step, variant, subject, body) values ($1, $2, $3, $4, $5)
