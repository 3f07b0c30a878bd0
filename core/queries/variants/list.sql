-- A template's extra variants (B to E) of every step, in order (primary key).
select step, variant, subject, body from template_variants where template_id = $1 order by step, variant
