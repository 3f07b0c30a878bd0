-- A new search, running.
insert into searches (user_id, campaign_id, search_type, search_term, params, chunks_total, created_at)
values ($1, $2, $3, $4, $5, $6, $7)
returning id
