-- A user's search log rows, newest first (index search_logs_user_created).
select id, search_id, search_term, search_type, created_at, chunk_number, max_results, businesses_found, excluded_items,
    business_data, query, raw_response
from search_logs where user_id = $1
order by created_at desc, id desc
limit $2
