-- The enrichment job's view of a business (primary key).
select id, user_id, website, email, enriched_at from businesses where id = $1
