-- The enrichment job's view of a business (primary key).
select id, user_id, name, website, email, enriched_at from businesses where id = $1
