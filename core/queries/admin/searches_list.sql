-- Searches across users for the console, a page in the order asked, `$1` a lowercase `%text%` over the term and the
-- owner's email, `$2` a status ('' for all).
select s.id, u.email as user_email, s.search_type, s.search_term, s.status, s.chunks_done, s.chunks_total,
    s.businesses_found, s.error, s.created_at, s.finished_at
from searches s join users u on u.id = s.user_id
where ($1 = '' or lower(s.search_term) like $1 or lower(u.email) like $1) and ($2 = '' or s.status = $2)
order by {order}
limit $3 offset $4
