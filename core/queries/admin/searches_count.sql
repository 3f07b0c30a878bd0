-- How many searches the filter of admin/searches_list matches.
select count(*) from searches s join users u on u.id = s.user_id
where ($1 = '' or lower(s.search_term) like $1 or lower(u.email) like $1) and ($2 = '' or s.status = $2)
