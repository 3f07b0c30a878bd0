-- The first email's extra variants of each of a user's templates, in order (index email_templates_user_created,
-- then each template's variants by primary key).
select v.template_id, v.subject, v.body from template_variants v join email_templates t on t.id = v.template_id
where t.user_id = $1 and v.step = 0
order by v.template_id, v.variant
