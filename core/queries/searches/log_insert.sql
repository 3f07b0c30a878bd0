-- One chunk's log row (B §3 Search log).
insert into search_logs (search_id, user_id, search_term, search_type, chunk_number, max_results, businesses_found,
    excluded_items, business_data, query, raw_response, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
