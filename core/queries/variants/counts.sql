-- How many extra variants each step of a template has (primary key).
select step, cast(count(*) as bigint) from template_variants where template_id = $1 group by step
