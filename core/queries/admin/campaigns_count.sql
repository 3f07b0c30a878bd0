-- How many campaigns the filter of admin/campaigns_list matches.
select count(*) from campaigns c join users u on u.id = c.user_id
where ($1 = '' or lower(c.name) like $1 or lower(u.email) like $1) and ($2 = '' or c.status = $2)
