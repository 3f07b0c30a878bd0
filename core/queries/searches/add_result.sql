-- Links a business to a search; a business already in it is not added twice.
insert into search_results (search_id, business_id, position) values ($1, $2, $3)
on conflict (search_id, business_id) do nothing
