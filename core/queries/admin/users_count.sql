-- How many users the filter of admin/users_list matches.
select count(*) from users u
where ($1 = '' or lower(u.email) like $1 or lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like $1)
    and ($2 = ''
        or ($2 = 'waiting' and u.account_status = 'inactive')
        or ($2 = 'trial' and u.subscription_status = 'trial')
        or ($2 = 'premium' and u.subscription_plan = 'premium' and u.subscription_status = 'active')
        or ($2 = 'expired' and u.subscription_status = 'expired')
        or ($2 = 'administrators' and (',' || $3 || ',') like ('%,' || u.email || ',%')))
