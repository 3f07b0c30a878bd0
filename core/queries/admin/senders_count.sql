-- How many senders the filter of admin/senders_list matches.
select count(*) from email_configs e join users u on u.id = e.user_id
where e.removed_at is null and ($1 = '' or lower(e.send_from) like $1 or lower(u.email) like $1)
    and ($2 = '' or e.provider = $2)
