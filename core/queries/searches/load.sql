-- The job's view of a search (primary key).
select id, user_id, campaign_id, search_type, search_term, params, status, chunks_total, chunks_done, businesses_found, error from searches where id = $1
