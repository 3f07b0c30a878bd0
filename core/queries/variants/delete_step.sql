-- A step's extra variants, before the step's new ones are written (primary key).
delete from template_variants where template_id = $1 and step = $2
